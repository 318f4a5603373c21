-- wrk script for run.sh. LOGBOOK_BENCH_ROUTE picks the route:
--   "health"     GET /health (no authentication: the server's floor)
--   "scoreboard" GET /v1/houses/{id}/scoreboard, each seeded user asking about their own house
--   "history"    GET /v1/houses/{id}/history, a page of 50 of the house's 60 completions (setup.py), each
--                read from the log with the completer's name opened
--   "complete"   POST /v1/houses/{id}/tasks/{taskId}/completions, each user completing their own task
--   "reviews"    GET /v1/organisations/{id}/reviews, each user the reviews they may see (setup.py:
--                50 of 60 for an admin, their own 20 for an employee, each read from the log)
--   "news"       GET /v1/organisations/{id}/news, a page of the 30 items setup.py posts (each opened when read)
-- The users of LOGBOOK_BENCH_TUPLES (lines "token houseId taskId organisationId") take turns, round-robin.
-- done() appends one JSON line of figures to LOGBOOK_BENCH_RESULTS (report.py prints the table).
local route = os.getenv("LOGBOOK_BENCH_ROUTE") or "complete"
local requests = {}
local i = 0
statuses = {}  -- global: done() reads each thread's copy with thread:get("statuses")

function init(args)
  for line in io.lines(os.getenv("LOGBOOK_BENCH_TUPLES") or "tuples.txt") do
    local token, house, task, organisation = line:match("(%S+) (%S+) (%S+) (%S+)")
    local headers = {["Authorization"] = "Bearer " .. token}
    -- Formatted once: building a request per call would take wrk's share of the cores.
    if route == "health" then
      table.insert(requests, wrk.format("GET", "/health", {}, nil))
    elseif route == "scoreboard" then
      table.insert(requests, wrk.format("GET", "/v1/houses/" .. house .. "/scoreboard", headers, nil))
    elseif route == "history" then
      table.insert(requests, wrk.format("GET", "/v1/houses/" .. house .. "/history", headers, nil))
    elseif route == "reviews" then
      table.insert(requests, wrk.format("GET", "/v1/organisations/" .. organisation .. "/reviews", headers, nil))
    elseif route == "news" then
      table.insert(requests, wrk.format("GET", "/v1/organisations/" .. organisation .. "/news", headers, nil))
    elseif route == "complete" then
      table.insert(requests, wrk.format("POST", "/v1/houses/" .. house .. "/tasks/" .. task .. "/completions", headers, nil))
    else
      error("unknown LOGBOOK_BENCH_ROUTE " .. route)
    end
  end
  i = math.random(#requests)
end

function request()
  i = i % #requests + 1
  return requests[i]
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests_)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      counts[status] = (counts[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(counts) do
    table.insert(parts, string.format('"%s": %d', status, count))
  end
  table.sort(parts)
  local e = summary.errors
  local line = string.format(
    '{"route": "%s", "requests": %d, "durationMicroseconds": %d, "latencyMicroseconds": {"p50": %d, "p99": %d, "max": %d}, '
      .. '"statuses": {%s}, "socketErrors": {"connect": %d, "read": %d, "write": %d, "timeout": %d}}\n',
    route, summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    table.concat(parts, ", "), e.connect, e.read, e.write, e.timeout)
  local path = os.getenv("LOGBOOK_BENCH_RESULTS")
  if path then
    local file = assert(io.open(path, "a"))
    file:write(line)
    file:close()
  else
    io.write(line)
  end
end
