// Box2D 2.4.1 running the scenes of `tactile bench dynamics`, scaled to metres;
// prints "scene seconds-per-step".
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <vector>

extern "C" {
#include "scenes.h"
}

namespace {

constexpr float kScale = 1.0f / BOX2D_POINTS_PER_METRE;  // metres per point

b2Vec2 metres(double x, double y) { return b2Vec2(float(x * kScale), float(y * kScale)); }

// Mass per square metre giving the same masses as density 1 in points (area / 10,000).
float density() { return float(BOX2D_POINTS_PER_METRE * BOX2D_POINTS_PER_METRE / 10000.0); }

void addWalls(b2World &world, double width, float friction) {
    b2BodyDef def;
    b2Body *ground = world.CreateBody(&def);
    b2EdgeShape edge;
    const double walls[3][4] = {{0, 0, width, 0}, {0, 0, 0, 4000}, {width, 0, width, 4000}};
    for (const auto &w : walls) {
        edge.SetTwoSided(metres(w[0], w[1]), metres(w[2], w[3]));
        b2FixtureDef fixture;
        fixture.shape = &edge;
        fixture.friction = friction;
        ground->CreateFixture(&fixture);
    }
}

double cradle() {
    b2World world(metres(0, -GRAVITY));
    world.SetAllowSleeping(false);  /* every engine simulates every frame */
    b2BodyDef anchorDef;
    b2Body *anchor = world.CreateBody(&anchorDef);
    const double theta = CRADLE_DEGREES * M_PI / 180;
    for (int i = 0; i < CRADLE_BALLS; i++) {
        const double ax = (i - (CRADLE_BALLS - 1) / 2.0) * 2 * CRADLE_RADIUS;
        const double angle = i < CRADLE_PULLED ? -theta : 0;
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.fixedRotation = true;
        def.position = metres(ax + CRADLE_LENGTH * std::sin(angle), -CRADLE_LENGTH * std::cos(angle));
        b2Body *ball = world.CreateBody(&def);
        b2CircleShape circle;
        circle.m_radius = float(CRADLE_RADIUS * kScale);
        b2FixtureDef fixture;
        fixture.shape = &circle;
        fixture.density = density();
        fixture.friction = 0;
        fixture.restitution = 1;
        fixture.restitutionThreshold = 0.01f;
        ball->CreateFixture(&fixture);
        b2DistanceJointDef joint;
        joint.Initialize(anchor, ball, metres(ax, 0), ball->GetPosition());
        world.CreateJoint(&joint);
    }
    const int steps = 60000;
    const double start = now_seconds();
    for (int s = 0; s < steps; s++) world.Step(float(CRADLE_STEP), 8, 3);
    return (now_seconds() - start) / steps;
}

// Steps FRAMES frames of 1/60 s and returns seconds per frame.
double timeFrames(b2World &world) {
    const double start = now_seconds();
    for (int f = 0; f < FRAMES; f++) world.Step(float(FRAME), 8, 3);
    return (now_seconds() - start) / FRAMES;
}

double pit(int count) {
    b2World world(metres(0, -GRAVITY));
    world.SetAllowSleeping(false);  /* every engine simulates every frame */
    addWalls(world, PIT_WIDTH, 0.5f);
    std::vector<double> radii(count);
    std::vector<b2Body *> balls;
    pit_radii(count, radii.data());
    for (int i = 0; i < count; i++) {
        double x, y;
        pit_position(i, &x, &y);
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position = metres(x, y);
        b2Body *ball = world.CreateBody(&def);
        b2CircleShape circle;
        circle.m_radius = float(radii[i] * kScale);
        b2FixtureDef fixture;
        fixture.shape = &circle;
        fixture.density = density();
        fixture.friction = 0.5f;
        ball->CreateFixture(&fixture);
        balls.push_back(ball);
    }
    const double seconds = timeFrames(world);
    // The same check `tactile` prints for its own pits, in points.
    std::vector<double> xs(count), ys(count);
    for (int i = 0; i < count; i++) {
        xs[i] = balls[i]->GetPosition().x / kScale;
        ys[i] = balls[i]->GetPosition().y / kScale;
    }
    std::printf("pit%d.overlap %.9g\n", count, deepest_overlap(count, xs.data(), ys.data(), radii.data()));
    return seconds;
}

// `count` pyramids of `rows` rows; prints how far any box moved under `name`.moved.
double pyramids(const char *name, int count, int rows) {
    b2World world(metres(0, -GRAVITY));
    world.SetAllowSleeping(false);  /* every engine simulates every frame */
    b2BodyDef groundDef;
    b2Body *ground = world.CreateBody(&groundDef);
    double left, right;
    pyramid_floor(count, rows, &left, &right);
    b2EdgeShape floor;
    floor.SetTwoSided(metres(left, 0), metres(right, 0));
    b2FixtureDef floorFixture;
    floorFixture.shape = &floor;
    floorFixture.friction = 0.6f;
    ground->CreateFixture(&floorFixture);
    std::vector<b2Body *> boxes;
    std::vector<b2Vec2> starts;
    for (int k = 0; k < pyramid_boxes(count, rows); k++) {
        double x, y;
        pyramid_box(count, rows, k, &x, &y);
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position = metres(x, y);
        b2Body *box = world.CreateBody(&def);
        b2PolygonShape shape;
        shape.SetAsBox(float(BOX_SIZE / 2 * kScale), float(BOX_SIZE / 2 * kScale));
        b2FixtureDef fixture;
        fixture.shape = &shape;
        fixture.density = density();
        fixture.friction = 0.6f;
        box->CreateFixture(&fixture);
        boxes.push_back(box);
        starts.push_back(box->GetPosition());
    }
    const double seconds = timeFrames(world);
    double moved = 0;
    for (size_t i = 0; i < boxes.size(); i++) {
        moved = std::max(moved, double((boxes[i]->GetPosition() - starts[i]).Length()) / kScale);
    }
    std::printf("%s.moved %.9g\n", name, moved);
    return seconds;
}

}  // namespace

int main() {
    return run_scenes(cradle, pit, pyramids);
}
