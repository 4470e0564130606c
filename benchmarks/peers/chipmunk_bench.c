/* Chipmunk2D 7 running the scenes of `tactile bench dynamics`; prints "scene seconds-per-step". */
#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenes.h"

static void add_walls(cpSpace *space, double width, double friction) {
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpVect corners[3][2] = {
        {cpv(0, 0), cpv(width, 0)},
        {cpv(0, 0), cpv(0, 4000)},
        {cpv(width, 0), cpv(width, 4000)},
    };
    for (int k = 0; k < 3; k++) {
        cpShape *wall = cpSpaceAddShape(space, cpSegmentShapeNew(ground, corners[k][0], corners[k][1], 0));
        cpShapeSetFriction(wall, friction);
    }
}

static double cradle(void) {
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -GRAVITY));
    cpSpaceSetIterations(space, 10);
    double theta = CRADLE_DEGREES * M_PI / 180;
    for (int i = 0; i < CRADLE_BALLS; i++) {
        double ax = (i - (CRADLE_BALLS - 1) / 2.0) * 2 * CRADLE_RADIUS;
        double angle = i < CRADLE_PULLED ? -theta : 0;
        double mass = M_PI * CRADLE_RADIUS * CRADLE_RADIUS / 10000;
        cpBody *ball = cpSpaceAddBody(space, cpBodyNew(mass, INFINITY));
        cpBodySetPosition(ball, cpv(ax + CRADLE_LENGTH * sin(angle), -CRADLE_LENGTH * cos(angle)));
        cpShape *shape = cpSpaceAddShape(space, cpCircleShapeNew(ball, CRADLE_RADIUS, cpvzero));
        cpShapeSetElasticity(shape, 1);
        cpSpaceAddConstraint(
            space, cpPinJointNew(cpSpaceGetStaticBody(space), ball, cpv(ax, 0), cpvzero));
    }
    int steps = 60000;
    double start = now_seconds();
    for (int s = 0; s < steps; s++) cpSpaceStep(space, CRADLE_STEP);
    double seconds = (now_seconds() - start) / steps;
    cpSpaceFree(space);
    return seconds;
}

/* Steps FRAMES frames of 1/60 s and returns seconds per frame. */
static double time_frames(cpSpace *space) {
    double start = now_seconds();
    for (int f = 0; f < FRAMES; f++) cpSpaceStep(space, FRAME);
    return (now_seconds() - start) / FRAMES;
}

static double pit(int count) {
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -GRAVITY));
    cpSpaceSetIterations(space, 10);
    cpSpaceUseSpatialHash(space, 16, count * 2);
    add_walls(space, PIT_WIDTH, 0.5);
    double *radii = malloc(sizeof(double) * count);
    cpBody **balls = malloc(sizeof(cpBody *) * count);
    pit_radii(count, radii);
    for (int i = 0; i < count; i++) {
        double x, y;
        pit_position(i, &x, &y);
        double mass = M_PI * radii[i] * radii[i] / 10000;
        cpBody *ball = cpSpaceAddBody(space, cpBodyNew(mass, cpMomentForCircle(mass, 0, radii[i], cpvzero)));
        cpBodySetPosition(ball, cpv(x, y));
        cpShape *shape = cpSpaceAddShape(space, cpCircleShapeNew(ball, radii[i], cpvzero));
        cpShapeSetFriction(shape, 0.5);
        balls[i] = ball;
    }
    double seconds = time_frames(space);
    /* The same check `tactile` prints for its own pits. */
    double *xs = malloc(sizeof(double) * count), *ys = malloc(sizeof(double) * count);
    for (int i = 0; i < count; i++) {
        cpVect p = cpBodyGetPosition(balls[i]);
        xs[i] = p.x;
        ys[i] = p.y;
    }
    printf("pit%d.overlap %.9g\n", count, deepest_overlap(count, xs, ys, radii));
    free(xs);
    free(ys);
    free(balls);
    free(radii);
    cpSpaceFree(space);
    return seconds;
}

/* `count` pyramids of `rows` rows; prints how far any box moved under `name`.moved. */
static double pyramids(const char *name, int count, int rows) {
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -GRAVITY));
    cpSpaceSetIterations(space, 10);
    const int total = pyramid_boxes(count, rows);
    if (total > 1000) cpSpaceUseSpatialHash(space, 2 * BOX_SIZE, 2 * total);
    cpBody *ground = cpSpaceGetStaticBody(space);
    double left, right;
    pyramid_floor(count, rows, &left, &right);
    cpShape *floor = cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(left, 0), cpv(right, 0), 0));
    cpShapeSetFriction(floor, 0.6);
    double mass = BOX_SIZE * BOX_SIZE / 10000;
    cpBody **boxes = malloc(sizeof(cpBody *) * total);
    cpVect *starts = malloc(sizeof(cpVect) * total);
    for (int k = 0; k < total; k++) {
        double x, y;
        pyramid_box(count, rows, k, &x, &y);
        cpBody *box = cpSpaceAddBody(space, cpBodyNew(mass, cpMomentForBox(mass, BOX_SIZE, BOX_SIZE)));
        cpBodySetPosition(box, cpv(x, y));
        cpShape *shape = cpSpaceAddShape(space, cpBoxShapeNew(box, BOX_SIZE, BOX_SIZE, 0));
        cpShapeSetFriction(shape, 0.6);
        boxes[k] = box;
        starts[k] = cpv(x, y);
    }
    double seconds = time_frames(space);
    double moved = 0;
    for (int k = 0; k < total; k++) {
        double d = cpvdist(cpBodyGetPosition(boxes[k]), starts[k]);
        if (d > moved) moved = d;
    }
    printf("%s.moved %.9g\n", name, moved);
    free(boxes);
    free(starts);
    cpSpaceFree(space);
    return seconds;
}

int main(void) {
    return run_scenes(cradle, pit, pyramids);
}
