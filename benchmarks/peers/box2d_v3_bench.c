/* Box2D v3 running the scenes of `tactile bench dynamics`, scaled to metres, one thread, 4
 * substeps (v3's default); prints "scene seconds-per-step" and each scene's check, as the
 * other peers do. Built by scripts/bench.sh against a v3 checkout given in BOX2D_V3_SRC. */
#include <box2d/box2d.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenes.h"

#define SCALE (1.0f / BOX2D_POINTS_PER_METRE) /* metres per point */
#define SUBSTEPS 4

static b2Vec2 metres(double x, double y) {
    return (b2Vec2){(float)(x * SCALE), (float)(y * SCALE)};
}

/* Mass per square metre giving the same masses as density 1 in points (area / 10,000). */
static float density(void) {
    return (float)(BOX2D_POINTS_PER_METRE * BOX2D_POINTS_PER_METRE / 10000.0);
}

static b2WorldId make_world(void) {
    b2WorldDef def = b2DefaultWorldDef();
    def.gravity = metres(0, -GRAVITY);
    def.enableSleep = false; /* every engine simulates every frame */
    def.workerCount = 1;
    return b2CreateWorld(&def);
}

static void add_segment(b2BodyId ground, double x1, double y1, double x2, double y2, float friction) {
    b2ShapeDef shape = b2DefaultShapeDef();
    shape.material.friction = friction;
    b2Segment segment = {metres(x1, y1), metres(x2, y2)};
    b2CreateSegmentShape(ground, &shape, &segment);
}

static double cradle(void) {
    b2WorldDef worldDef = b2DefaultWorldDef();
    worldDef.gravity = metres(0, -GRAVITY);
    worldDef.enableSleep = false;
    worldDef.workerCount = 1;
    worldDef.restitutionThreshold = 0.01f;
    b2WorldId world = b2CreateWorld(&worldDef);
    b2BodyDef anchorDef = b2DefaultBodyDef();
    b2BodyId anchor = b2CreateBody(world, &anchorDef);
    const double theta = CRADLE_DEGREES * M_PI / 180;
    for (int i = 0; i < CRADLE_BALLS; i++) {
        const double ax = (i - (CRADLE_BALLS - 1) / 2.0) * 2 * CRADLE_RADIUS;
        const double angle = i < CRADLE_PULLED ? -theta : 0;
        b2BodyDef def = b2DefaultBodyDef();
        def.type = b2_dynamicBody;
        def.motionLocks.angularZ = true;
        def.position = metres(ax + CRADLE_LENGTH * sin(angle), -CRADLE_LENGTH * cos(angle));
        b2BodyId ball = b2CreateBody(world, &def);
        b2ShapeDef shape = b2DefaultShapeDef();
        shape.density = density();
        shape.material.friction = 0;
        shape.material.restitution = 1;
        b2Circle circle = {{0, 0}, (float)(CRADLE_RADIUS * SCALE)};
        b2CreateCircleShape(ball, &shape, &circle);
        b2DistanceJointDef joint = b2DefaultDistanceJointDef();
        joint.base.bodyIdA = anchor;
        joint.base.bodyIdB = ball;
        joint.base.localFrameA.p = metres(ax, 0);
        joint.length = (float)(CRADLE_LENGTH * SCALE);
        b2CreateDistanceJoint(world, &joint);
    }
    const int steps = 60000;
    const double start = now_seconds();
    for (int s = 0; s < steps; s++) b2World_Step(world, (float)CRADLE_STEP, SUBSTEPS);
    const double seconds = (now_seconds() - start) / steps;
    b2DestroyWorld(world);
    return seconds;
}

/* Steps FRAMES frames of 1/60 s and returns seconds per frame. */
static double time_frames(b2WorldId world) {
    const double start = now_seconds();
    for (int f = 0; f < FRAMES; f++) b2World_Step(world, (float)FRAME, SUBSTEPS);
    return (now_seconds() - start) / FRAMES;
}

static double pit(int count) {
    b2WorldId world = make_world();
    b2BodyDef groundDef = b2DefaultBodyDef();
    b2BodyId ground = b2CreateBody(world, &groundDef);
    add_segment(ground, 0, 0, PIT_WIDTH, 0, 0.5f);
    add_segment(ground, 0, 0, 0, 4000, 0.5f);
    add_segment(ground, PIT_WIDTH, 0, PIT_WIDTH, 4000, 0.5f);
    double *radii = malloc(sizeof(double) * count);
    double *xs = malloc(sizeof(double) * count);
    double *ys = malloc(sizeof(double) * count);
    b2BodyId *balls = malloc(sizeof(b2BodyId) * count);
    pit_radii(count, radii);
    for (int i = 0; i < count; i++) {
        double x, y;
        pit_position(i, &x, &y);
        b2BodyDef def = b2DefaultBodyDef();
        def.type = b2_dynamicBody;
        def.position = metres(x, y);
        balls[i] = b2CreateBody(world, &def);
        b2ShapeDef shape = b2DefaultShapeDef();
        shape.density = density();
        shape.material.friction = 0.5f;
        b2Circle circle = {{0, 0}, (float)(radii[i] * SCALE)};
        b2CreateCircleShape(balls[i], &shape, &circle);
    }
    const double seconds = time_frames(world);
    for (int i = 0; i < count; i++) {
        b2Vec2 p = b2Body_GetPosition(balls[i]);
        xs[i] = p.x / SCALE;
        ys[i] = p.y / SCALE;
    }
    printf("pit%d.overlap %.9g\n", count, deepest_overlap(count, xs, ys, radii));
    free(radii), free(xs), free(ys), free(balls);
    b2DestroyWorld(world);
    return seconds;
}

/* `count` pyramids of `rows` rows; returns seconds per frame and prints the furthest any box
 * moved under `name`.moved. */
static double pyramids(const char *name, int count, int rows) {
    b2WorldId world = make_world();
    b2BodyDef groundDef = b2DefaultBodyDef();
    b2BodyId ground = b2CreateBody(world, &groundDef);
    double left, right;
    pyramid_floor(count, rows, &left, &right);
    add_segment(ground, left, 0, right, 0, 0.6f);
    const int total = pyramid_boxes(count, rows);
    b2BodyId *boxes = malloc(sizeof(b2BodyId) * total);
    b2Vec2 *starts = malloc(sizeof(b2Vec2) * total);
    b2Polygon square = b2MakeBox((float)(BOX_SIZE / 2 * SCALE), (float)(BOX_SIZE / 2 * SCALE));
    for (int k = 0; k < total; k++) {
        double x, y;
        pyramid_box(count, rows, k, &x, &y);
        b2BodyDef def = b2DefaultBodyDef();
        def.type = b2_dynamicBody;
        def.position = metres(x, y);
        boxes[k] = b2CreateBody(world, &def);
        b2ShapeDef shape = b2DefaultShapeDef();
        shape.density = density();
        shape.material.friction = 0.6f;
        b2CreatePolygonShape(boxes[k], &shape, &square);
        starts[k] = b2Body_GetPosition(boxes[k]);
    }
    const double seconds = time_frames(world);
    double moved = 0;
    for (int k = 0; k < total; k++) {
        b2Vec2 p = b2Body_GetPosition(boxes[k]);
        double d = hypot(p.x - starts[k].x, p.y - starts[k].y) / SCALE;
        if (d > moved) moved = d;
    }
    printf("%s.moved %.9g\n", name, moved);
    free(boxes);
    free(starts);
    b2DestroyWorld(world);
    return seconds;
}

int main(void) {
    return run_scenes(cradle, pit, pyramids);
}
