-- wrk script: checks every response against the expected body and gathers
-- the X-Worker-Us (and X-First-Message-Us, when sent) headers; prints their
-- medians and the bad count.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  expected = "ok " .. os.getenv("EXPECT") .. "\n"
  us = {}
  first = {}
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
  local f = headers["X-First-Message-Us"]
  if f then
    first[#first + 1] = tonumber(f)
  end
end

local function median(name)
  local all = {}
  for _, t in ipairs(threads) do
    for _, v in ipairs(t:get(name)) do
      all[#all + 1] = v
    end
  end
  table.sort(all)
  if #all == 0 then
    return 0
  end
  return all[math.floor((#all + 1) / 2)]
end

function done(summary, latency, requests)
  local nbad = 0
  for _, t in ipairs(threads) do
    nbad = nbad + t:get("bad")
  end
  io.write(string.format("RESULT requests=%d rps=%.1f worker_us_median=%d first_us_median=%d bad=%d errors=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), median("us"), median("first"),
    nbad + summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
