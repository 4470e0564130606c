#ifndef TACTILE_FUZZ_DRIVER_H
#define TACTILE_FUZZ_DRIVER_H

/// Runs libFuzzer on the executable's `LLVMFuzzerTestOneInput`, as libFuzzer's own `main`
/// would: it parses libFuzzer's flags from `argv` and returns the exit code.
///
/// SwiftPM (tools version 5.5 and later) links every executable with `main` redirected to
/// `<target>_main`, which displaces libFuzzer's `main`; each fuzz target defines that symbol
/// and calls this.
int tactile_fuzz_main(int argc, char **argv);

#endif
