/* What checking one answer's price costs the service, on one core: the proof of work as it is
 * (16 parts: 16 SHA-256 of `salt:nonce`), and a memory-hard price for comparison (one Argon2id
 * of the salt with the nonce, libsodium's crypto_pwhash, 1 pass, 2 to 16 MiB), the price a
 * memory-hard proof of work would make the service pay per answer, honest or not.
 *
 *   cc -O2 verify_cost.c -lsodium -o verify_cost && ./verify_cost
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    if (sodium_init() < 0) return 2;
    const char *salt = "5d1c0a7e93b24f68a1e0c3b79d2f4a65";
    unsigned char digest[crypto_hash_sha256_BYTES];
    char text[64];
    int rounds = 200000;
    double start = now();
    for (int r = 0; r < rounds; r++) {
        for (int part = 0; part < 16; part++) {
            int length = snprintf(text, sizeof text, "%s:%012d", salt, r * 16 + part);
            crypto_hash_sha256(digest, (const unsigned char *)text, (size_t)length);
        }
    }
    double sha = (now() - start) / rounds;
    printf("{\"check\": \"sha-256, 16 parts\", \"microseconds\": %.2f}\n", sha * 1e6);
    unsigned char pwsalt[crypto_pwhash_SALTBYTES] = {0};
    unsigned char out[32];
    const size_t mebibytes[] = {2, 4, 16};
    for (size_t i = 0; i < sizeof mebibytes / sizeof mebibytes[0]; i++) {
        int calls = 20;
        start = now();
        for (int c = 0; c < calls; c++) {
            snprintf(text, sizeof text, "%012d", c);
            if (crypto_pwhash(out, sizeof out, text, strlen(text), pwsalt, 1, mebibytes[i] << 20,
                              crypto_pwhash_ALG_ARGON2ID13) != 0) return 1;
        }
        double argon = (now() - start) / calls;
        printf("{\"check\": \"argon2id, %zu MiB, 1 pass\", \"microseconds\": %.0f, \"times_sha\": %.0f}\n",
               mebibytes[i], argon * 1e6, argon / sha);
    }
    return 0;
}
