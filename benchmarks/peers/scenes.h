/* The scenes `tactile bench dynamics` times, shared by the peer programs. Units are points
 * and seconds with y pointing up (the engines' convention); `tactile` builds the same scenes
 * with y pointing down. Box2D is scaled by BOX2D_POINTS_PER_METRE into its metre range. */
#ifndef TACTILE_PEER_SCENES_H
#define TACTILE_PEER_SCENES_H

#include <stdint.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAVITY 1000.0            /* points/s², UIKit's gravity magnitude 1 */
#define CRADLE_BALLS 5
#define CRADLE_RADIUS 20.0
#define CRADLE_LENGTH 160.0
#define CRADLE_PULLED 2
#define CRADLE_DEGREES 30.0
#define CRADLE_STEP (1.0 / 600)
#define PIT_WIDTH 800.0
#define PIT_SPACING 17.0
#define PYRAMID_ROWS 20
#define BOX_SIZE 20.0
#define FRAME (1.0 / 60)
#define FRAMES 120
#define BOX2D_POINTS_PER_METRE 10.0
/* The large scenes, run when TACTILE_BENCH_LARGE is set (scripts/bench.sh sets it). */
#define PIT_LARGE 10000
#define PYRAMID_LARGE_ROWS 100
#define MANY_PYRAMIDS 20
#define MANY_PYRAMID_ROWS 10
#define PYRAMID_GAP 20.0 /* between the bases of pyramids side by side */

static inline int large_scenes(void) {
    const char *value = getenv("TACTILE_BENCH_LARGE");
    return value != NULL && *value != '\0' && strcmp(value, "0") != 0;
}

/* Boxes in `count` pyramids of `rows` rows. */
static inline int pyramid_boxes(int count, int rows) { return count * rows * (rows + 1) / 2; }

/* Centre of box k of `count` pyramids of `rows` rows standing on y = 0, side by side around
 * x = 400 with PYRAMID_GAP between their bases: row by row from the bottom, pyramid by pyramid;
 * in a row the boxes are 1 point apart. */
static inline void pyramid_box(int count, int rows, int k, double *x, double *y) {
    const int per = rows * (rows + 1) / 2;
    const int p = k / per;
    int i = k % per, row = 0;
    while (i >= rows - row) i -= rows - row++;
    const double pitch = rows * (BOX_SIZE + 1) + PYRAMID_GAP;
    const double middle = 400 + (p - (count - 1) / 2.0) * pitch;
    *x = middle + (i - (rows - row - 1) / 2.0) * (BOX_SIZE + 1);
    *y = BOX_SIZE / 2 + row * BOX_SIZE;
}

/* The floor under the pyramids: from -200 to 1000, or wider where they need it. */
static inline void pyramid_floor(int count, int rows, double *left, double *right) {
    const double half = count * (rows * (BOX_SIZE + 1) + PYRAMID_GAP) / 2 + 100;
    *left = fmin(-200, 400 - half);
    *right = fmax(1000, 400 + half);
}

/* Radii 4…8 points from the same generator `tactile` uses. */
static inline void pit_radii(int count, double *radii) {
    uint32_t state = 12345;
    for (int i = 0; i < count; i++) {
        state = state * 1103515245u + 12345u;
        radii[i] = 4.0 + 4.0 * (double)((state >> 8) & 0xFFFF) / 65535.0;
    }
}

/* Grid position of ball i: 46 columns 17 points apart, rows upwards from the floor (y = 0). */
static inline void pit_position(int i, double *x, double *y) {
    int columns = (int)(PIT_WIDTH / PIT_SPACING) - 1;
    *x = 17.0 + (i % columns) * PIT_SPACING;
    *y = 10.0 + (i / columns) * PIT_SPACING;
}

/* The deepest overlap between any two of `count` circles, points (0 when none touch). */
static inline double deepest_overlap(int count, const double *x, const double *y,
                                     const double *r) {
    double deepest = 0;
    for (int i = 0; i < count; i++) {
        for (int j = i + 1; j < count; j++) {
            double reach = r[i] + r[j];
            double dx = x[j] - x[i];
            if (dx > reach || dx < -reach) continue;
            double dy = y[j] - y[i];
            double overlap = reach - sqrt(dx * dx + dy * dy);
            if (overlap > deepest) deepest = overlap;
        }
    }
    return deepest;
}

/* Runs every scene with one engine's functions and prints "name seconds" for each (the scene
 * functions print their checks): what each peer's main does. */
static inline int run_scenes(double (*cradle)(void), double (*pit)(int),
                             double (*pyramids)(const char *, int, int)) {
    printf("cradle %.9g\n", cradle());
    printf("pit1000 %.9g\n", pit(1000));
    printf("pit4000 %.9g\n", pit(4000));
    printf("pyramid %.9g\n", pyramids("pyramid", 1, PYRAMID_ROWS));
    if (large_scenes()) {
        printf("pit10000 %.9g\n", pit(PIT_LARGE));
        printf("pyramid100 %.9g\n", pyramids("pyramid100", 1, PYRAMID_LARGE_ROWS));
        printf("pyramids %.9g\n", pyramids("pyramids", MANY_PYRAMIDS, MANY_PYRAMID_ROWS));
    }
    return 0;
}

static inline double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
