/* A script's proof-of-work solver, as fast as one core goes: nonces such that SHA-256 of
 * "salt:nonce" starts with `difficulty` zero bits, for benchmarks/price/farm.py. The salt is 32
 * lowercase hex characters, the nonce 12 decimal digits as the widget sends them, so the
 * message is 45 bytes, one SHA-256 block. What an attacker does, and the modes here do:
 *
 *  - the nonce's digits are laid out so that only one message word varies in the inner loop:
 *    bytes 0..31 (W0..W7) are the salt, W8 is ':' and digits 0..2, W9 digits 3..6, W10 digits
 *    7..10, W11 digit 11 and the padding's 0x80; W12..W14 are 0 and W15 the length (360). A
 *    batch fixes digits 0..6 and 11 and runs W10 through "0000".."9999" (10 000 nonces);
 *  - rounds 0..7 are computed once per salt, rounds 8..9 and the parts of round 10 that do not
 *    depend on W10 once per batch;
 *  - message-schedule terms that do not depend on W10 are summed once per batch (W16, W18, W20
 *    and W22 are constant; W17..W38 need only their varying terms); K[t] is folded in;
 *  - only the digest's first word is computed (the last round's e is dropped), and H0's IV
 *    is folded into round 63's constant;
 *  - vector rounds are reassociated so that a round's chain of dependent operations is 4 long,
 *    not 5, and avx512 runs two vectors in lockstep to fill each one's waits.
 *
 * Modes: libsodium (crypto_hash_sha256 per nonce, the text built with snprintf: the naive
 * baseline), scalar (plain C, one nonce at a time), sha-ni (Intel SHA extensions, SHANI_WAY
 * nonces interleaved), avx2 (8 nonces an instruction), avx512 (16 nonces an instruction,
 * AVX-512F). Each is compiled for its instruction set by function attributes and runs where
 * the CPU has it; all are tuned "generic" (GCC 12's znver3 tuning, which -march=native picks on
 * this EPYC, spills scalar registers to vector ones and cost scalar a third of its speed).
 *
 *   cc -O3 -march=native native_solver.c -lsodium -o native_solver
 *   ./native_solver MODE DIFFICULTY SECONDS   one JSON line: solves fresh random salts for SECONDS
 *                                             of this thread's CPU time; hashes_per_second is per
 *                                             CPU second, so other load on the machine counts less
 *   ./native_solver --check                   every mode against libsodium; exits 0 when all agree
 *   ./native_solver --modes                   the modes this CPU runs, one a line
 */
#include <sodium.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef SHANI_WAY
#define SHANI_WAY 4
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};
static const uint32_t IV[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

#define BATCH 10000        /* nonces a batch: W10 = "0000".."9999" */
#define BATCHES 100000000ULL /* batches a salt: digits 0..6 and 11 */
_Static_assert(BATCH % 16 == 0, "whole vectors of 8 and 16");
_Static_assert(BATCH % SHANI_WAY == 0, "whole groups of sha-ni nonces");

/* W10 of inner index i: its 4 digits as a big-endian word, e.g. "0427" */
static uint32_t quad[BATCH] __attribute__((aligned(64)));

struct salt {
    char text[33];  /* 32 hex characters and a NUL */
    uint32_t w[8];  /* W0..W7 */
    uint32_t mid[8]; /* the state after rounds 0..7 */
};

struct batch {
    const struct salt *salt;
    unsigned long long number;
    uint32_t s10[8];  /* the state after round 10 less W10 (which a and e add) */
    uint32_t kw[64];  /* K[t] + W[t] of rounds whose word is constant */
    uint32_t c[64];   /* the constant part of W[t] for t >= 16 */
    uint32_t ck[64];  /* c[t] + K[t] (round 63: + IV[0] as well) */
    /* for sha-ni, 4-word vectors, element 0 first */
    uint32_t abef9[4], cdgh9[4]; /* the state after round 9 */
    uint32_t kw10[4];  /* [K10, K11 + W11, 0, 0] (W10 added per nonce) */
    uint32_t kw12[4];  /* [K12, K13, 0, 0] */
    uint32_t kw14[4];  /* [K14, K15 + W15, 0, 0] */
    uint32_t x16[4];   /* msg1(W0..3, W4..7) + [W9, 0, W11, W12] (W10 added in element 1) */
    uint32_t m12[4];   /* msg1(W4..7, W8..11) */
    uint32_t g2[4];    /* W8..W11 with W10 = 0 */
    uint32_t g3[4];    /* W12..W15 */
    uint32_t m34[4];   /* msg1(W12..15, W16..19) */
};

/* A mode's search of one batch: the inner indexes whose digest's first word AND `mask` is
 * zero, ascending, into hits (room for BATCH), their number into *found; stops after the first
 * group that hit when stop_first. Returns the nonces hashed. */
typedef unsigned long long (*search_fn)(const struct batch *bt, uint32_t mask, int stop_first,
                                        uint16_t *hits, int *found);

static inline uint32_t ror32(uint32_t x, int n) { return x >> n | x << (32 - n); }
static inline uint32_t bs0(uint32_t x) { return ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22); }
static inline uint32_t bs1(uint32_t x) { return ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25); }
static inline uint32_t ss0(uint32_t x) { return ror32(x, 7) ^ ror32(x, 18) ^ x >> 3; }
static inline uint32_t ss1(uint32_t x) { return ror32(x, 17) ^ ror32(x, 19) ^ x >> 10; }
static inline uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void round_once(uint32_t s[8], uint32_t kw) {
    uint32_t t1 = s[7] + bs1(s[4]) + ((s[4] & s[5]) ^ (~s[4] & s[6])) + kw;
    uint32_t t2 = bs0(s[0]) + ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
    memmove(s + 1, s, 7 * sizeof *s);
    s[4] += t1;
    s[0] = t1 + t2;
}

/* The nonce text of inner index i of batch `number`: digits 0..6, the 4 inner digits, digit 11. */
static void nonce_text(char out[32], unsigned long long number, int i) {
    snprintf(out, 32, "%07llu%04d%d", number / 10, i, (int)(number % 10));
}

static void setup_salt(struct salt *s, const char hex[32]) {
    memcpy(s->text, hex, 32);
    s->text[32] = 0;
    uint32_t st[8];
    memcpy(st, IV, sizeof st);
    for (int t = 0; t < 8; t++) {
        s->w[t] = be32((const unsigned char *)hex + 4 * t);
        round_once(st, K[t] + s->w[t]);
    }
    memcpy(s->mid, st, sizeof st);
}

static void setup_batch(struct batch *bt, const struct salt *s, unsigned long long number) {
    memset(bt, 0, sizeof *bt);
    bt->salt = s;
    bt->number = number;
    char digits[32];
    nonce_text(digits, number, 0);
    uint32_t w[64] = {0};
    int varies[64] = {0};
    memcpy(w, s->w, sizeof s->w);
    w[8] = (uint32_t)':' << 24 | (uint32_t)digits[0] << 16 | (uint32_t)digits[1] << 8 | (uint32_t)digits[2];
    w[9] = be32((const unsigned char *)digits + 3);
    varies[10] = 1; /* w[10] stays 0: the nonce's inner digits */
    w[11] = (uint32_t)digits[11] << 24 | 0x80u << 16;
    w[15] = 45 * 8;
    for (int t = 16; t < 64; t++) {
        varies[t] = varies[t - 2] | varies[t - 7] | varies[t - 15] | varies[t - 16];
        w[t] = (varies[t - 2] ? 0 : ss1(w[t - 2])) + (varies[t - 7] ? 0 : w[t - 7]) +
               (varies[t - 15] ? 0 : ss0(w[t - 15])) + (varies[t - 16] ? 0 : w[t - 16]);
        bt->c[t] = w[t];
        bt->ck[t] = w[t] + K[t];
    }
    bt->ck[63] += IV[0];
    for (int t = 0; t < 64; t++)
        if (!varies[t]) bt->kw[t] = K[t] + w[t];

    uint32_t st[8];
    memcpy(st, s->mid, sizeof st);
    round_once(st, bt->kw[8]);
    round_once(st, bt->kw[9]);
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    bt->abef9[0] = f, bt->abef9[1] = e, bt->abef9[2] = b, bt->abef9[3] = a;
    bt->cdgh9[0] = h, bt->cdgh9[1] = g, bt->cdgh9[2] = d, bt->cdgh9[3] = c;
    uint32_t t1 = h + bs1(e) + ((e & f) ^ (~e & g)) + K[10];
    uint32_t t2 = bs0(a) + ((a & b) ^ (a & c) ^ (b & c));
    uint32_t s10[8] = {t1 + t2, a, b, c, d + t1, e, f, g};
    memcpy(bt->s10, s10, sizeof s10);

    uint32_t kw10[4] = {K[10], K[11] + w[11], 0, 0}, kw12[4] = {K[12], K[13], 0, 0},
             kw14[4] = {K[14], K[15] + w[15], 0, 0},
             x16[4] = {w[0] + ss0(w[1]) + w[9], w[1] + ss0(w[2]), w[2] + ss0(w[3]) + w[11], w[3] + ss0(w[4]) + w[12]},
             m12[4] = {w[4] + ss0(w[5]), w[5] + ss0(w[6]), w[6] + ss0(w[7]), w[7] + ss0(w[8])},
             g2[4] = {w[8], w[9], 0, w[11]}, g3[4] = {w[12], w[13], w[14], w[15]},
             m34[4] = {w[12] + ss0(w[13]), w[13] + ss0(w[14]), w[14] + ss0(w[15]), w[15] + ss0(w[16])};
    memcpy(bt->kw10, kw10, 16), memcpy(bt->kw12, kw12, 16), memcpy(bt->kw14, kw14, 16);
    memcpy(bt->x16, x16, 16), memcpy(bt->m12, m12, 16), memcpy(bt->g2, g2, 16), memcpy(bt->g3, g3, 16);
    memcpy(bt->m34, m34, 16);
}

/* ---- rounds 11..63 for one vector of nonces, in any lane type: V, ADD, ROR, SHR, XOR3, CH,
 * MAJ and SET1 (broadcast) are defined before DEFINE_KERNEL is used ---- */

#define BS0(x) XOR3(ROR(x, 2), ROR(x, 13), ROR(x, 22))
#define BS1(x) XOR3(ROR(x, 6), ROR(x, 11), ROR(x, 25))
#define SS0(x) XOR3(ROR(x, 7), ROR(x, 18), SHR(x, 3))
#define SS1(x) XOR3(ROR(x, 17), ROR(x, 19), SHR(x, 10))

/* the 8 working variables as a round sees them, round t taking P((t - 11) % 8): no moves */
#define P0 a, b, c, d, e, f, g, h
#define P1 h, a, b, c, d, e, f, g
#define P2 g, h, a, b, c, d, e, f
#define P3 f, g, h, a, b, c, d, e
#define P4 e, f, g, h, a, b, c, d
#define P5 d, e, f, g, h, a, b, c
#define P6 c, d, e, f, g, h, a, b
#define P7 b, c, d, e, f, g, h, a

/* one round: the fewest additions, for scalar code, whose limit is the instructions */
#define ROUND_FEW(a, b, c, d, e, f, g, h, kw)                                 \
    do {                                                                      \
        V t1_ = ADD(ADD(h, kw), ADD(BS1(e), CH(e, f, g)));                    \
        d = ADD(d, t1_);                                                      \
        h = ADD(t1_, ADD(BS0(a), MAJ(a, b, c)));                              \
    } while (0)
/* one round: an addition more, but the new e is 4 operations from the old (rotate, xor3, add,
 * add) where it was 5; for vector code, whose limit is the chain of dependent operations */
#define ROUND_SHORT(a, b, c, d, e, f, g, h, kw)                               \
    do {                                                                      \
        V hk_ = ADD(h, kw), u_ = ADD(BS1(e), CH(e, f, g));                    \
        d = ADD(u_, ADD(d, hk_));                                             \
        h = ADD(ADD(u_, hk_), ADD(BS0(a), MAJ(a, b, c)));                     \
    } while (0)
#define ROUND_(...) ROUND(__VA_ARGS__)
/* a round whose word is constant */
#define RC(p, t) ROUND_(p, SET1(bt->kw[t]))
/* a round whose word is `sum` (its varying terms) + c[t] */
#define RV(p, t, sum)                                                         \
    V s##t = (sum);                                                           \
    V w##t = ADD(s##t, SET1(bt->c[t]));                                       \
    ROUND_(p, ADD(s##t, SET1(bt->ck[t])))
/* a round whose word's four terms all vary */
#define RF(p, t, t2, t7, t15, t16)                                            \
    V w##t = ADD(ADD(SS1(w##t2), w##t7), ADD(SS0(w##t15), w##t16));           \
    ROUND_(p, ADD(w##t, SET1(K[t])))

/* H0 of the nonces whose W10 is w10 */
#define DEFINE_KERNEL(name, attributes)                                       \
    attributes __attribute__((always_inline)) static inline V name(const struct batch *bt, V w10) { \
        V a = ADD(SET1(bt->s10[0]), w10), b = SET1(bt->s10[1]);               \
        V c = SET1(bt->s10[2]), d = SET1(bt->s10[3]);                         \
        V e = ADD(SET1(bt->s10[4]), w10), f = SET1(bt->s10[5]);               \
        V g = SET1(bt->s10[6]), h = SET1(bt->s10[7]);                         \
        RC(P0, 11); RC(P1, 12); RC(P2, 13); RC(P3, 14); RC(P4, 15); RC(P5, 16); \
        RV(P6, 17, w10);                                                      \
        RC(P7, 18);                                                           \
        RV(P0, 19, SS1(w17));                                                 \
        RC(P1, 20);                                                           \
        RV(P2, 21, SS1(w19));                                                 \
        RC(P3, 22);                                                           \
        RV(P4, 23, SS1(w21));                                                 \
        RV(P5, 24, w17);                                                      \
        RV(P6, 25, ADD(SS1(w23), SS0(w10)));                                  \
        RV(P7, 26, ADD(ADD(SS1(w24), w19), w10));                             \
        RV(P0, 27, SS1(w25));                                                 \
        RV(P1, 28, ADD(SS1(w26), w21));                                       \
        RV(P2, 29, SS1(w27));                                                 \
        RV(P3, 30, ADD(SS1(w28), w23));                                       \
        RV(P4, 31, ADD(SS1(w29), w24));                                       \
        RV(P5, 32, ADD(ADD(SS1(w30), w25), SS0(w17)));                        \
        RV(P6, 33, ADD(ADD(SS1(w31), w26), w17));                             \
        RV(P7, 34, ADD(ADD(SS1(w32), w27), SS0(w19)));                        \
        RV(P0, 35, ADD(ADD(SS1(w33), w28), w19));                             \
        RV(P1, 36, ADD(ADD(SS1(w34), w29), SS0(w21)));                        \
        RV(P2, 37, ADD(ADD(SS1(w35), w30), w21));                             \
        RV(P3, 38, ADD(ADD(SS1(w36), w31), SS0(w23)));                        \
        RF(P4, 39, 37, 32, 24, 23); RF(P5, 40, 38, 33, 25, 24);               \
        RF(P6, 41, 39, 34, 26, 25); RF(P7, 42, 40, 35, 27, 26);               \
        RF(P0, 43, 41, 36, 28, 27); RF(P1, 44, 42, 37, 29, 28);               \
        RF(P2, 45, 43, 38, 30, 29); RF(P3, 46, 44, 39, 31, 30);               \
        RF(P4, 47, 45, 40, 32, 31); RF(P5, 48, 46, 41, 33, 32);               \
        RF(P6, 49, 47, 42, 34, 33); RF(P7, 50, 48, 43, 35, 34);               \
        RF(P0, 51, 49, 44, 36, 35); RF(P1, 52, 50, 45, 37, 36);               \
        RF(P2, 53, 51, 46, 38, 37); RF(P3, 54, 52, 47, 39, 38);               \
        RF(P4, 55, 53, 48, 40, 39); RF(P5, 56, 54, 49, 41, 40);               \
        RF(P6, 57, 55, 50, 42, 41); RF(P7, 58, 56, 51, 43, 42);               \
        RF(P0, 59, 57, 52, 44, 43); RF(P1, 60, 58, 53, 45, 44);               \
        RF(P2, 61, 59, 54, 46, 45); RF(P3, 62, 60, 55, 47, 46);               \
        /* round 63: c[63] is 0 and ck[63] = K[63] + IV[0], so the new a is H0 */ \
        RV(P4, 63, ADD(ADD(SS1(w61), w56), ADD(SS0(w48), w47)));              \
        (void)w63;                                                            \
        return d;                                                             \
    }

/* ---- scalar: plain C ---- */
#define V uint32_t
#define ROUND ROUND_FEW
#define ADD(x, y) ((x) + (y))
#define ROR(x, n) ((x) >> (n) | (x) << (32 - (n)))
#define SHR(x, n) ((x) >> (n))
#define XOR3(x, y, z) ((x) ^ (y) ^ (z))
#define CH(e, f, g) ((((f) ^ (g)) & (e)) ^ (g))
#define MAJ(a, b, c) ((((a) ^ (b)) & ((b) ^ (c))) ^ (b)) /* (a ^ b) is the next round's (b ^ c) */
#define SET1(x) (x)
DEFINE_KERNEL(kernel_scalar, )
#undef ROUND
#include "lane_ops_end.h"

/* not vectorized by the compiler: one nonce at a time */
__attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize"), target("tune=generic")))
static unsigned long long search_scalar(const struct batch *bt, uint32_t mask, int stop_first,
                                        uint16_t *hits, int *found) {
    int n = 0, i;
    for (i = 0; i < BATCH; i++) {
        if (kernel_scalar(bt, quad[i]) & mask) continue;
        hits[n++] = (uint16_t)i;
        if (stop_first) { i++; break; }
    }
    *found = n;
    return (unsigned long long)i;
}

/* ---- avx2: 8 lanes, rotates as two shifts and an or (two vectors in lockstep, as avx512 does,
 * run slower: 16 registers do not hold them) ---- */
#define AVX2 __attribute__((target("avx2,tune=generic")))
#define V __m256i
#define ROUND ROUND_SHORT
#define ADD(x, y) _mm256_add_epi32(x, y)
#define ROR(x, n) _mm256_or_si256(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - (n)))
#define SHR(x, n) _mm256_srli_epi32(x, n)
#define XOR3(x, y, z) _mm256_xor_si256(_mm256_xor_si256(x, y), z)
#define CH(e, f, g) _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g)
#define MAJ(a, b, c) _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(b, c)), b)
#define SET1(x) _mm256_set1_epi32((int)(x))
DEFINE_KERNEL(kernel_avx2, AVX2)
#undef ROUND
#include "lane_ops_end.h"
AVX2
static unsigned long long search_avx2(const struct batch *bt, uint32_t mask, int stop_first,
                                      uint16_t *hits, int *found) {
    const __m256i masks = _mm256_set1_epi32((int)mask), zero = _mm256_setzero_si256();
    int n = 0, i;
    for (i = 0; i < BATCH; i += 8) {
        __m256i h0 = kernel_avx2(bt, _mm256_load_si256((const __m256i *)(quad + i)));
        unsigned m = (unsigned)_mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(h0, masks), zero)));
        if (!m) continue;
        for (; m; m &= m - 1) hits[n++] = (uint16_t)(i + __builtin_ctz(m));
        if (stop_first) { i += 8; break; }
    }
    *found = n;
    return (unsigned long long)i;
}

/* ---- avx512: 16 lanes a vector, rotates and three-input logic; two vectors in lockstep (32
 * nonces; 32 registers hold them), the batch's last 16 nonces one vector ---- */
#define AVX512 __attribute__((target("avx512f,tune=generic")))
#define V __m512i
#define ROUND ROUND_SHORT
#define ADD(x, y) _mm512_add_epi32(x, y)
#define ROR(x, n) _mm512_ror_epi32(x, n)
#define SHR(x, n) _mm512_srli_epi32(x, n)
#define XOR3(x, y, z) _mm512_ternarylogic_epi32(x, y, z, 0x96)
#define CH(e, f, g) _mm512_ternarylogic_epi32(e, f, g, 0xca)
#define MAJ(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0xe8)
#define SET1(x) _mm512_set1_epi32((int)(x))
DEFINE_KERNEL(kernel_avx512, AVX512)
#include "lane_ops_end.h"

typedef struct { __m512i x, y; } zmm2;
#define ZMM2_OP3(name, imm)                                                   \
    AVX512 static inline zmm2 name(zmm2 a, zmm2 b, zmm2 c) {                  \
        return (zmm2){_mm512_ternarylogic_epi32(a.x, b.x, c.x, imm),          \
                      _mm512_ternarylogic_epi32(a.y, b.y, c.y, imm)};         \
    }
ZMM2_OP3(zmm2_xor3, 0x96)
ZMM2_OP3(zmm2_ch, 0xca)
ZMM2_OP3(zmm2_maj, 0xe8)
AVX512 static inline zmm2 zmm2_add(zmm2 a, zmm2 b) { return (zmm2){_mm512_add_epi32(a.x, b.x), _mm512_add_epi32(a.y, b.y)}; }
AVX512 static inline zmm2 zmm2_set1(uint32_t v) { __m512i x = _mm512_set1_epi32((int)v); return (zmm2){x, x}; }
#define V zmm2
#define ADD(x, y) zmm2_add(x, y)
#define ROR(v, n) ((zmm2){_mm512_ror_epi32((v).x, n), _mm512_ror_epi32((v).y, n)})
#define SHR(v, n) ((zmm2){_mm512_srli_epi32((v).x, n), _mm512_srli_epi32((v).y, n)})
#define XOR3(x, y, z) zmm2_xor3(x, y, z)
#define CH(e, f, g) zmm2_ch(e, f, g)
#define MAJ(a, b, c) zmm2_maj(a, b, c)
#define SET1(x) zmm2_set1(x)
DEFINE_KERNEL(kernel_avx512x2, AVX512)
#undef ROUND
#include "lane_ops_end.h"

AVX512
static unsigned long long search_avx512(const struct batch *bt, uint32_t mask, int stop_first,
                                        uint16_t *hits, int *found) {
    const __m512i masks = _mm512_set1_epi32((int)mask);
    int n = 0, i, step;
    for (i = 0; i < BATCH; i += step) {
        unsigned long long m;
        if (i + 32 <= BATCH) {
            step = 32;
            zmm2 h0 = kernel_avx512x2(bt, (zmm2){_mm512_load_si512((const void *)(quad + i)),
                                                 _mm512_load_si512((const void *)(quad + i + 16))});
            m = _mm512_testn_epi32_mask(h0.x, masks) | (unsigned long long)_mm512_testn_epi32_mask(h0.y, masks) << 16;
        } else {
            step = 16;
            m = _mm512_testn_epi32_mask(kernel_avx512(bt, _mm512_load_si512((const void *)(quad + i))), masks);
        }
        if (!m) continue;
        for (; m; m &= m - 1) hits[n++] = (uint16_t)(i + __builtin_ctzll(m));
        if (stop_first) { i += step; break; }
    }
    *found = n;
    return (unsigned long long)i;
}

/* ---- sha-ni: SHA256RNDS2 does two rounds on the state as ABEF and CDGH; SHANI_WAY nonces in
 * lockstep so that one's rounds run while another's wait (4 ran faster than 1 or 2 here) ---- */
#define SHANI __attribute__((target("sha,sse4.1,tune=generic")))
#define EACH for (int j = 0; j < SHANI_WAY; j++)
#define LOAD(p) _mm_loadu_si128((const __m128i *)(p))
/* two rounds of every nonce with words kw[j]'s elements 0 and 1 */
#define RND2(kw) EACH { __m128i n_ = _mm_sha256rnds2_epu32(cd[j], ab[j], kw[j]); cd[j] = ab[j]; ab[j] = n_; }
/* four rounds with the words g[j] */
#define RND4(g, t)                                                            \
    do {                                                                      \
        __m128i kw_[SHANI_WAY];                                               \
        EACH kw_[j] = _mm_add_epi32(g[j], kt[(t) / 4]);                       \
        RND2(kw_);                                                            \
        EACH kw_[j] = _mm_shuffle_epi32(kw_[j], 0x0e);                        \
        RND2(kw_);                                                            \
    } while (0)
/* the next 4 words: from w[t-16..t-13], w[t-12..t-9] (msg1 of the two: m), w[t-8..t-5], w[t-4..t-1] */
#define NEXT(out, m, g8, g4) EACH out[j] = _mm_sha256msg2_epu32(_mm_add_epi32(m, _mm_alignr_epi8(g4[j], g8[j], 4)), g4[j])

SHANI
static unsigned long long search_shani(const struct batch *bt, uint32_t mask, int stop_first,
                                       uint16_t *hits, int *found) {
    __m128i kt[16];
    for (int q = 0; q < 16; q++) kt[q] = LOAD(K + 4 * q);
    kt[15] = _mm_add_epi32(kt[15], _mm_set_epi32((int)IV[0], 0, 0, 0)); /* A after round 63 is H0 */
    const __m128i abef9 = LOAD(bt->abef9), cdgh9 = LOAD(bt->cdgh9), kw10 = LOAD(bt->kw10),
                  kw12 = LOAD(bt->kw12), kw14 = LOAD(bt->kw14), x16 = LOAD(bt->x16), m12 = LOAD(bt->m12),
                  g2base = LOAD(bt->g2), g3c = LOAD(bt->g3), m34 = LOAD(bt->m34);
    int n = 0, i;
    for (i = 0; i < BATCH; i += SHANI_WAY) {
        __m128i ab[SHANI_WAY], cd[SHANI_WAY], v[SHANI_WAY], k[SHANI_WAY];
        __m128i g2[SHANI_WAY], g3[SHANI_WAY], g4[SHANI_WAY], g5[SHANI_WAY], g6[SHANI_WAY], g7[SHANI_WAY];
        EACH {
            ab[j] = abef9, cd[j] = cdgh9, g3[j] = g3c;
            v[j] = _mm_cvtsi32_si128((int)quad[i + j]); /* [W10, 0, 0, 0] */
            g2[j] = _mm_add_epi32(g2base, _mm_slli_si128(v[j], 8));
        }
        EACH k[j] = _mm_add_epi32(kw10, v[j]);
        RND2(k); /* rounds 10, 11 */
        EACH k[j] = kw12;
        RND2(k);
        EACH k[j] = kw14;
        RND2(k);
        EACH g4[j] = _mm_sha256msg2_epu32(_mm_add_epi32(x16, _mm_slli_si128(v[j], 4)), g3[j]); /* W16..19 */
        RND4(g4, 16);
        NEXT(g5, m12, g3, g4); /* W20..23 */
        RND4(g5, 20);
        NEXT(g6, _mm_sha256msg1_epu32(g2[j], g3[j]), g4, g5);
        RND4(g6, 24);
        NEXT(g7, m34, g5, g6);
        RND4(g7, 28);
        /* W32.. in turn: the four latest groups rotate through g4..g7 */
        NEXT(g4, _mm_sha256msg1_epu32(g4[j], g5[j]), g6, g7); RND4(g4, 32);
        NEXT(g5, _mm_sha256msg1_epu32(g5[j], g6[j]), g7, g4); RND4(g5, 36);
        NEXT(g6, _mm_sha256msg1_epu32(g6[j], g7[j]), g4, g5); RND4(g6, 40);
        NEXT(g7, _mm_sha256msg1_epu32(g7[j], g4[j]), g5, g6); RND4(g7, 44);
        NEXT(g4, _mm_sha256msg1_epu32(g4[j], g5[j]), g6, g7); RND4(g4, 48);
        NEXT(g5, _mm_sha256msg1_epu32(g5[j], g6[j]), g7, g4); RND4(g5, 52);
        NEXT(g6, _mm_sha256msg1_epu32(g6[j], g7[j]), g4, g5); RND4(g6, 56);
        NEXT(g7, _mm_sha256msg1_epu32(g7[j], g4[j]), g5, g6); RND4(g7, 60);
        int hit = 0;
        EACH if (!((uint32_t)_mm_extract_epi32(ab[j], 3) & mask)) hits[n++] = (uint16_t)(i + j), hit = 1;
        if (hit && stop_first) { i += SHANI_WAY; break; }
    }
    *found = n;
    return (unsigned long long)i;
}

/* ---- libsodium: the text of every nonce with snprintf, crypto_hash_sha256 ---- */
static unsigned long long search_libsodium(const struct batch *bt, uint32_t mask, int stop_first,
                                           uint16_t *hits, int *found) {
    char text[64];
    unsigned char digest[crypto_hash_sha256_BYTES];
    int n = 0, i;
    for (i = 0; i < BATCH; i++) {
        int length = snprintf(text, sizeof text, "%s:%07llu%04d%d", bt->salt->text, bt->number / 10, i,
                              (int)(bt->number % 10));
        crypto_hash_sha256(digest, (const unsigned char *)text, (size_t)length);
        if (be32(digest) & mask) continue;
        hits[n++] = (uint16_t)i;
        if (stop_first) { i++; break; }
    }
    *found = n;
    return (unsigned long long)i;
}

static int always(void) { return 1; }
static int has_shani(void) { return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1"); }
static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int has_avx512(void) { return __builtin_cpu_supports("avx512f"); }

static const struct mode {
    const char *name;
    search_fn search;
    int (*runs)(void);
} modes[] = {
    {"libsodium", search_libsodium, always},
    {"scalar", search_scalar, always},
    {"sha-ni", search_shani, has_shani},
    {"avx2", search_avx2, has_avx2},
    {"avx512", search_avx512, has_avx512},
};
#define MODES (int)(sizeof modes / sizeof *modes)

/* leading zero bits of SHA-256(salt ":" nonce), by libsodium */
static int reference_bits(const char *salt, const char *nonce) {
    char text[64];
    unsigned char d[crypto_hash_sha256_BYTES];
    int length = snprintf(text, sizeof text, "%s:%s", salt, nonce);
    crypto_hash_sha256(d, (const unsigned char *)text, (size_t)length);
    int bits = 0;
    for (int i = 0; i < (int)sizeof d; i++) {
        if (d[i] == 0) { bits += 8; continue; }
        bits += __builtin_clz(d[i]) - 24;
        break;
    }
    return bits;
}

static void random_salt(struct salt *s) {
    unsigned char raw[16];
    char hex[33];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
    setup_salt(s, hex);
}

static uint32_t mask_of(int difficulty) { return ~0u << (32 - difficulty); }

/* the seconds this thread ran: the rate is one core's while other work shares the machine */
static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* every mode against libsodium: each hit it reports, and the full set of hits of whole batches */
static int check(void) {
    static uint16_t expected[BATCH], got[BATCH];
    static const int difficulties[] = {1, 8, 12};
    int failures = 0, compared = 0;
    long long verified = 0;
    for (int m = 0; m < MODES; m++)
        if (!modes[m].runs()) printf("check: %s skipped, this CPU lacks it\n", modes[m].name);
    for (int s = 0; s < 8; s++) {
        struct salt salt;
        random_salt(&salt);
        unsigned long long numbers[3] = {s == 0 ? 0 : randombytes_uniform(100000000u),
                                         s == 0 ? BATCHES - 1 : randombytes_uniform(100000000u),
                                         randombytes_uniform(100000000u)};
        for (int b = 0; b < 3; b++) {
            struct batch bt;
            setup_batch(&bt, &salt, numbers[b]);
            for (size_t di = 0; di < sizeof difficulties / sizeof *difficulties; di++) {
                int difficulty = difficulties[di], nexpected;
                uint32_t mask = mask_of(difficulty);
                search_libsodium(&bt, mask, 0, expected, &nexpected);
                for (int m = 0; m < MODES; m++) {
                    if (!modes[m].runs()) continue;
                    int ngot, bad = 0;
                    unsigned long long hashed = modes[m].search(&bt, mask, 0, got, &ngot);
                    for (int h = 0; h < ngot; h++) {
                        char nonce[32];
                        nonce_text(nonce, bt.number, got[h]);
                        if (reference_bits(salt.text, nonce) < difficulty) {
                            printf("check: %s: %s:%s has fewer than %d zero bits\n", modes[m].name, salt.text,
                                   nonce, difficulty);
                            bad = 1;
                        }
                        verified++;
                    }
                    if (hashed != BATCH || ngot != nexpected || memcmp(got, expected, ngot * sizeof *got)) {
                        printf("check: %s: salt %s batch %llu at %d bits: %d hits in %llu nonces, libsodium %d\n",
                               modes[m].name, salt.text, bt.number, difficulty, ngot, hashed, nexpected);
                        bad = 1;
                    }
                    /* stopping at the first hit reports that one */
                    int nfirst;
                    modes[m].search(&bt, mask, 1, got, &nfirst);
                    if (nexpected > 0 && (nfirst < 1 || got[0] != expected[0])) {
                        printf("check: %s: first hit %d, libsodium's %d\n", modes[m].name, nfirst ? got[0] : -1,
                               expected[0]);
                        bad = 1;
                    }
                    failures += bad;
                    compared++;
                }
            }
        }
    }
    printf("check: %d comparisons of whole batches with libsodium, %lld hits verified one by one: %s\n", compared,
           verified, failures ? "FAILED" : "all agree");
    return failures ? 1 : 0;
}

static int usage(void) {
    fprintf(stderr, "usage: native_solver MODE DIFFICULTY SECONDS | --check | --modes\nmodes:");
    for (int m = 0; m < MODES; m++) fprintf(stderr, " %s", modes[m].name);
    fprintf(stderr, "\n");
    return 2;
}

int main(int argc, char **argv) {
    if (sodium_init() < 0) return 2;
    for (int i = 0; i < BATCH; i++) {
        char d[5];
        snprintf(d, sizeof d, "%04d", i);
        quad[i] = be32((const unsigned char *)d);
    }
    if (argc == 2 && !strcmp(argv[1], "--check")) return check();
    if (argc == 2 && !strcmp(argv[1], "--modes")) {
        for (int m = 0; m < MODES; m++)
            if (modes[m].runs()) printf("%s\n", modes[m].name);
        return 0;
    }
    if (argc != 4) return usage();
    const struct mode *mode = NULL;
    for (int m = 0; m < MODES; m++)
        if (!strcmp(argv[1], modes[m].name)) mode = &modes[m];
    int difficulty = atoi(argv[2]);
    double seconds = atof(argv[3]);
    if (!mode || difficulty < 1 || difficulty > 32 || !(seconds > 0)) return usage();
    if (!mode->runs()) {
        fprintf(stderr, "native_solver: this CPU lacks %s\n", mode->name);
        return 3;
    }
    uint32_t mask = mask_of(difficulty);
    static uint16_t hits[BATCH];
    unsigned long long hashes = 0, solved = 0;
    double start = cpu_now();
    while (cpu_now() - start < seconds) {
        struct salt salt;
        random_salt(&salt);
        for (unsigned long long number = 0;; number++) {
            if (number == BATCHES) {
                fprintf(stderr, "native_solver: no nonce for salt %s\n", salt.text);
                return 1;
            }
            struct batch bt;
            setup_batch(&bt, &salt, number);
            int found;
            hashes += mode->search(&bt, mask, 1, hits, &found);
            if (!found) continue;
            char nonce[32];
            nonce_text(nonce, number, hits[0]);
            if (reference_bits(salt.text, nonce) < difficulty) { /* one hash a solution: cheap */
                fprintf(stderr, "native_solver: %s: wrong solution %s:%s\n", mode->name, salt.text, nonce);
                return 1;
            }
            solved++;
            break;
        }
    }
    double elapsed = cpu_now() - start;
    printf("{\"mode\": \"%s\", \"difficulty\": %d, \"seconds\": %.3f, \"solved\": %llu, \"hashes_per_second\": %.0f}\n",
           mode->name, difficulty, elapsed, solved, hashes / elapsed);
    return 0;
}
