/* A script's proof-of-work solver, as fast as one core goes: SHA-256 of "salt:nonce" until
 * the digest starts with `difficulty` zero bits. Prints hashes a second over `seconds` of
 * solving random salts at `difficulty`, for benchmarks/price/farm.py. With -DWITH_OPENSSL the
 * hashing is OpenSSL's (SHA extensions where the CPU has them), the faster a script would pick.
 *
 *   cc -O2 native_solver.c -lsodium -o native_solver && ./native_solver 16 10
 *   cc -O2 -DWITH_OPENSSL native_solver.c -lsodium -lcrypto -o native_solver_openssl
 */
#include <sodium.h>
#ifdef WITH_OPENSSL
#include <openssl/sha.h>
#define HASH(out, in, length) SHA256((in), (length), (out))
#else
#define HASH(out, in, length) crypto_hash_sha256((out), (in), (length))
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int leading_zero_bits(const unsigned char *d) {
    int bits = 0;
    for (int i = 0; i < crypto_hash_sha256_BYTES; i++) {
        if (d[i] == 0) { bits += 8; continue; }
        for (int b = 7; b >= 0 && !(d[i] >> b & 1); b--) bits++;
        break;
    }
    return bits;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    int difficulty = argc > 1 ? atoi(argv[1]) : 16;
    double seconds = argc > 2 ? atof(argv[2]) : 10;
    if (sodium_init() < 0 || difficulty < 1 || difficulty > 32 || !(seconds > 0)) return 2;
    unsigned long long hashes = 0, solved = 0;
    double start = now();
    char text[128];
    unsigned char digest[crypto_hash_sha256_BYTES];
    while (now() - start < seconds) {
        unsigned char raw[16];
        randombytes_buf(raw, sizeof raw);
        char salt[33];
        sodium_bin2hex(salt, sizeof salt, raw, sizeof raw);
        for (unsigned long long nonce = 0;; nonce++) {
            int length = snprintf(text, sizeof text, "%s:%llu", salt, nonce);
            HASH(digest, (const unsigned char *)text, (size_t)length);
            hashes++;
            if (leading_zero_bits(digest) >= difficulty) break;
        }
        solved++;
    }
    double elapsed = now() - start;
    printf("{\"difficulty\": %d, \"seconds\": %.3f, \"solved\": %llu, \"hashes_per_second\": %.0f}\n",
           difficulty, elapsed, solved, hashes / elapsed);
    return 0;
}
