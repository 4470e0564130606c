-- wrk script for the "answer+verify" phase of scripts/bench-serve.sh: each prepared answer
-- (bench_prep.py) is POSTed once to /v1/challenges/{id}/answer, from the client address the
-- challenge was issued to (X-Forwarded-For); each token that comes back is POSTed to
-- /v1/siteverify as the site's server would. One pair is an answer and its verification.
--
-- wrk's Lua cannot tell a thread's connections apart, so verifications wait in a queue and go
-- out before the next answer. When a thread has sent every answer it stops once the last
-- response is in; until then an idle connection sends GET /healthz (a few dozen requests at
-- the end, not counted as pairs). The phase's time is measured here, from the first request
-- to the last pair's response (wrk's own duration is the full -d).
--
-- Run: wrk -t2 -c32 -d10s -s bench_answers.lua URL -- ANSWERS_FILE SECRET THREADS
-- ANSWERS_FILE has one line per answer: client <TAB> challenge id <TAB> answer JSON.
-- done() prints one line: "RESULT key=value ..." (latencies in ms, over every request).

local ffi = require("ffi")
ffi.cdef([[
  typedef struct { long tv_sec; long tv_nsec; } tactile_timespec;
  int clock_gettime(int clock, tactile_timespec *time);
  int getpid(void);
  int kill(int pid, int signal);
]])
local timespec = ffi.new("tactile_timespec")
local function now()
  ffi.C.clock_gettime(1, timespec) -- CLOCK_MONOTONIC: the same clock in every thread
  return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) * 1e-9
end

local threads = {}

-- What an answer (not a siteverify) is refused with: the contract's codes, and the errors.
local answer_refusals = {
  ["expired"] = true, ["not-passed"] = true, ["rate-limited"] = true,
  ['expected JSON {\\'] = true, -- a 400 (the match stops at its first quote)
  ["no such puzzle"] = true,
}

-- Ends this thread; the last thread to end interrupts wrk's main thread (SIGINT, which wrk
-- takes as "stop now"), so a round does not wait out the rest of -d. Each thread leaves a
-- marker file and looks for everyone's: of two threads ending together at least one sees both.
local function stop_thread()
  if stopping then return end
  stopping = true
  local marker = io.open(string.format("%s.done-%d", answers_path, thread_index), "w")
  if marker then marker:close() end
  local all = true
  for index = 0, thread_count - 1 do
    local other = io.open(string.format("%s.done-%d", answers_path, index), "r")
    if other then other:close() else all = false end
  end
  if all then ffi.C.kill(ffi.C.getpid(), 2) end
  wrk.thread:stop()
end

function setup(thread)
  thread:set("thread_index", #threads)
  table.insert(threads, thread)
end

function init(args)
  local path, secret, count = args[1], args[2], tonumber(args[3])
  answers_path, thread_count = path, count
  verify_prefix = string.format('{"secret":"%s","response":"', secret)
  answers = {}
  local line_number = 0
  for line in io.lines(path) do
    if line_number % count == thread_index then
      local client, id, body = line:match("^([^\t]+)\t([^\t]+)\t(.+)$")
      table.insert(answers, wrk.format("POST", "/v1/challenges/" .. id .. "/answer", {
        ["Content-Type"] = "application/json",
        ["Origin"] = "http://localhost",
        ["X-Forwarded-For"] = client,
      }, body))
    end
    line_number = line_number + 1
  end
  answer_count = #answers
  filler = wrk.format("GET", "/healthz")
  next_answer = 1
  queue, head, tail = {}, 1, 0
  sent, received = 0, 0 -- answers and verifications
  passed, refused, verified, fillers = 0, 0, 0, 0
  first_sent, last_received = 0, 0
  statuses, failures = {}, {}
  stopping = false
  -- wrk calls request() once in its first thread before the run, to check the request it
  -- builds (script_verify_request): that call must not use up an answer.
  probing = thread_index == 0
end

local function finished()
  return next_answer > #answers and head > tail and received == sent
end

function request()
  if probing then
    probing = false
    return filler
  end
  if first_sent == 0 then first_sent = now() end
  if head <= tail then
    local r = queue[head]
    queue[head] = nil
    head = head + 1
    sent = sent + 1
    return r
  end
  if next_answer <= #answers then
    local r = answers[next_answer]
    next_answer = next_answer + 1
    sent = sent + 1
    return r
  end
  fillers = fillers + 1
  return filler
end

function response(status, headers, body)
  if body:find('"status":', 1, true) then -- a filler's /healthz
    if finished() then stop_thread() end
    return
  end
  received = received + 1
  last_received = now()
  statuses[status] = (statuses[status] or 0) + 1
  local token = body:match('"token":"([^"]+)"')
  if token then
    passed = passed + 1
    tail = tail + 1
    queue[tail] = wrk.format("POST", "/v1/siteverify",
      { ["Content-Type"] = "application/json" }, verify_prefix .. token .. '"}')
  elseif body:find('"challenge_ts":', 1, true) then
    verified = verified + 1
  else
    local code = body:match('"error%-codes":%["([^"]+)"') or body:match('"error":"([^"]+)"')
      or ("status " .. status)
    failures[code] = (failures[code] or 0) + 1
    if answer_refusals[code] then refused = refused + 1 end
  end
  if finished() then stop_thread() end
end

function done(summary, latency, requests)
  local answers_total, answered_total, passed_total, verified_total, filler_total, received_total = 0, 0, 0, 0, 0, 0
  local first, last = math.huge, 0
  local codes, reasons = {}, {}
  local exhausted = 1 -- every thread used up its answers (else -d ran out first)
  for _, thread in ipairs(threads) do
    if not thread:get("stopping") then exhausted = 0 end
    answers_total = answers_total + thread:get("answer_count")
    passed_total = passed_total + thread:get("passed")
    answered_total = answered_total + thread:get("passed") + thread:get("refused")
    verified_total = verified_total + thread:get("verified")
    filler_total = filler_total + thread:get("fillers")
    received_total = received_total + thread:get("received")
    local f, l = thread:get("first_sent"), thread:get("last_received")
    if f > 0 then first = math.min(first, f) end
    last = math.max(last, l)
    for status, count in pairs(thread:get("statuses")) do
      codes[status] = (codes[status] or 0) + count
    end
    for reason, count in pairs(thread:get("failures")) do
      reasons[reason] = (reasons[reason] or 0) + count
    end
  end
  local non2xx, list, why = 0, {}, {}
  for status, count in pairs(codes) do
    if status < 200 or status > 299 then non2xx = non2xx + count end
    table.insert(list, string.format("%d:%d", status, count))
  end
  for reason, count in pairs(reasons) do
    table.insert(why, string.format("%s:%d", (reason:gsub("[%s,:=]", "_")), count))
  end
  table.sort(list)
  table.sort(why)
  local seconds = last > first and (last - first) or summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT seconds=%.3f requests=%d units=%d prepared=%d answered=%d passed=%d exhausted=%d "
      .. "fillers=%d "
      .. "p50_ms=%.2f "
      .. "p99_ms=%.2f max_ms=%.2f non2xx=%d socket_errors=%d statuses=%s failures=%s\n",
    seconds, received_total, verified_total, answers_total, answered_total, passed_total,
    exhausted, filler_total, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, non2xx, e.connect + e.read + e.write + e.timeout,
    table.concat(list, ","), #why > 0 and table.concat(why, ",") or "none"))
end
