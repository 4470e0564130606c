#include "FuzzDriver.h"

#include <stddef.h>
#include <stdint.h>

// Defined by the fuzz target and by libFuzzer respectively.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));

int tactile_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
