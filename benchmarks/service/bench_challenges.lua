-- wrk script for the "challenges" phase of scripts/bench-serve.sh: what a page does to show
-- a puzzle. POST /v1/challenges, then GET the background and the piece named in its answer;
-- one challenge is those three requests.
--
-- wrk's Lua cannot tell a thread's connections apart, so each thread rotates its POSTs through
-- its own client addresses (X-Forwarded-For, believed from the --trusted-proxy 127.0.0.1),
-- as many as it has connections: 32 connections, 32 clients. The image GETs wait in a queue
-- and go out before the next POST.
--
-- Run: wrk -t2 -c32 -d10s -s bench_challenges.lua URL -- SITEKEY CLIENTS_PER_THREAD
-- done() prints one line: "RESULT key=value ..." (latencies in ms, over every request).

local threads = {}

function setup(thread)
  thread:set("thread_index", #threads)
  table.insert(threads, thread)
end

function init(args)
  local sitekey = args[1]
  local clients = tonumber(args[2]) or 16
  local body = string.format('{"sitekey":"%s"}', sitekey)
  posts = {}
  for c = 1, clients do
    posts[c] = wrk.format("POST", "/v1/challenges", {
      ["Content-Type"] = "application/json",
      ["Origin"] = "http://localhost",
      ["X-Forwarded-For"] = string.format("10.%d.0.%d", 100 + thread_index, c),
    }, body)
  end
  next_client = 0
  queue, head, tail = {}, 1, 0
  created, images, other = 0, 0, 0
  statuses = {}
end

function request()
  if head <= tail then
    local r = queue[head]
    queue[head] = nil
    head = head + 1
    return r
  end
  next_client = next_client % #posts + 1
  return posts[next_client]
end

local function push(path)
  tail = tail + 1
  queue[tail] = wrk.format("GET", path)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local kind = headers["Content-Type"] or ""
  if status == 201 then
    local background = body:match('"background":"([^"]+)"')
    local piece = body:match('"piece":"([^"]+)"')
    if background and piece then
      created = created + 1
      push(background)
      push(piece)
    end
  elseif status == 200 and kind:sub(1, 6) == "image/" then
    images = images + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local total = { created = 0, images = 0, other = 0 }
  local codes = {}
  for _, thread in ipairs(threads) do
    total.created = total.created + thread:get("created")
    total.images = total.images + thread:get("images")
    total.other = total.other + thread:get("other")
    for status, count in pairs(thread:get("statuses")) do
      codes[status] = (codes[status] or 0) + count
    end
  end
  local non2xx, list = 0, {}
  for status, count in pairs(codes) do
    if status < 200 or status > 299 then non2xx = non2xx + count end
    table.insert(list, string.format("%d:%d", status, count))
  end
  table.sort(list)
  local e = summary.errors
  -- A challenge is complete when both its images came back: the image responses pair up
  -- (at most one partial challenge per connection at the end).
  local complete = math.min(total.created, math.floor(total.images / 2))
  io.write(string.format(
    "RESULT seconds=%.3f requests=%d units=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d "
      .. "socket_errors=%d statuses=%s\n",
    summary.duration / 1e6, summary.requests, complete, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, non2xx,
    e.connect + e.read + e.write + e.timeout, table.concat(list, ",")))
end
