-- wrk script: checks every response against the expected body and gathers
-- the X-Worker-Us header; prints the median worker time and the bad count.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  expected = "ok " .. os.getenv("EXPECT") .. "\n"
  us = {}
  bad = 0
end

function response(status, headers, body)
  if status ~= 200 or body ~= expected then
    bad = bad + 1
  end
  local w = headers["X-Worker-Us"]
  if w then
    us[#us + 1] = tonumber(w)
  end
end

function done(summary, latency, requests)
  local all, nbad = {}, 0
  for _, t in ipairs(threads) do
    for _, v in ipairs(t:get("us")) do
      all[#all + 1] = v
    end
    nbad = nbad + t:get("bad")
  end
  table.sort(all)
  local median = 0
  if #all > 0 then
    median = all[math.floor((#all + 1) / 2)]
  end
  io.write(string.format("RESULT requests=%d rps=%.1f worker_us_median=%d bad=%d errors=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), median,
    nbad + summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
