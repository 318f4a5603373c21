-- wrk script: each request is one of the seeded users acting in their own house, round-robin.
-- LOGBOOK_BENCH_ROUTE picks the route: "complete" (POST a task completion) or "scoreboard" (GET).
local tuples = {}
local i = 0
local route = os.getenv("LOGBOOK_BENCH_ROUTE") or "complete"

function init(args)
  for line in io.lines(os.getenv("LOGBOOK_BENCH_TUPLES") or "tuples.txt") do
    local token, house, task = line:match("(%S+) (%S+) (%S+)")
    table.insert(tuples, {token, house, task})
  end
  i = math.random(#tuples)
end

function request()
  i = i % #tuples + 1
  local t = tuples[i]
  local headers = {["Authorization"] = "Bearer " .. t[1]}
  if route == "scoreboard" then
    return wrk.format("GET", "/v1/houses/" .. t[2] .. "/scoreboard", headers, nil)
  end
  return wrk.format("POST", "/v1/houses/" .. t[2] .. "/tasks/" .. t[3] .. "/completions", headers, nil)
end
