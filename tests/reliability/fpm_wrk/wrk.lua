-- wrk script for fpm_wrk.php: op=mixed requests, and deliberately slow ones:
-- thread 1 sends op=slow_term every TERM_EVERY seconds, thread 2
-- op=slow_fatal every FATAL_EVERY seconds. Every request carries an id
-- (rid=<thread>-<n>) that nginx, php-fpm and the endpoint's journal log.
-- Counts answers: ok, wrong (200 with any other body), and status codes;
-- the runner attributes each 5xx from the logs.
local threads = {}
local n = 0

function setup(thread)
  n = n + 1
  thread:set("id", n)
  table.insert(threads, thread)
end

function init(args)
  ok = 0
  wrong = 0
  s5xx = 0
  other = 0
  slow = 0
  last = os.time()
  kind = (id % 2 == 1) and "slow_term" or "slow_fatal"
  every = tonumber(os.getenv(kind == "slow_term" and "TERM_EVERY" or "FATAL_EVERY") or "3")
  first_wrong = ""
  seq = 0
end

function request()
  local now = os.time()
  seq = seq + 1
  local rid = "&rid=" .. id .. "-" .. seq
  if now - last >= every then
    last = now
    slow = slow + 1
    return wrk.format(nil, "/?op=" .. kind .. rid)
  end
  return wrk.format(nil, "/?op=mixed" .. rid)
end

function response(status, headers, body)
  if status == 200 then
    if body == "ok\n" then
      ok = ok + 1
    else
      wrong = wrong + 1
      if first_wrong == "" then
        first_wrong = string.sub(body, 1, 200)
      end
    end
  elseif status >= 500 then
    s5xx = s5xx + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local t = { ok = 0, wrong = 0, s5xx = 0, other = 0, slow = 0 }
  local fw = ""
  for _, th in ipairs(threads) do
    for k, _ in pairs(t) do
      t[k] = t[k] + th:get(k)
    end
    if fw == "" then
      fw = th:get("first_wrong")
    end
  end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d seconds=%.1f ok=%d wrong=%d s5xx=%d other=%d slow=%d connect=%d read=%d write=%d timeout=%d p50_ms=%.1f p99_ms=%.1f\n",
    summary.requests, summary.duration / 1e6, t.ok, t.wrong, t.s5xx, t.other, t.slow,
    e.connect, e.read, e.write, e.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
  if fw ~= "" then
    io.write("FIRST_WRONG " .. fw .. "\n")
  end
end
