# shellcheck shell=bash
# Sourced by Tests/Accessibility/run.sh and Tests/Translations/run.sh: a private Xvfb.
#
# start_xvfb DIR starts Xvfb on a display it picks itself (so runs side by side do not race
# for one), waits until it takes clients, exports DISPLAY and sets xvfb_pid for the caller's
# cleanup. DIR holds its display number and log. -noreset: by default Xvfb resets when its last
# client goes (the readiness probe below, a bus launcher that set its property), and a client
# that connects during the reset is refused ("no display found").
start_xvfb() {
    local dir=$1
    Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$dir/display" 2>"$dir/xvfb.log" &
    # shellcheck disable=SC2034  # read by the caller's cleanup
    xvfb_pid=$!
    for _ in $(seq 100); do
        [[ -s "$dir/display" ]] && break
        sleep 0.1
    done
    if [[ ! -s "$dir/display" ]]; then
        echo "run.sh: Xvfb did not start:" >&2
        cat "$dir/xvfb.log" >&2
        exit 1
    fi
    DISPLAY=":$(head -n 1 "$dir/display")"
    export DISPLAY
    unset WAYLAND_DISPLAY
    # The number comes a moment before the display takes clients: wait until it answers.
    for _ in $(seq 50); do
        xdotool getdisplaygeometry >/dev/null 2>&1 && break
        sleep 0.1
    done
}
