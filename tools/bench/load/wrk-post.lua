-- wrk script for load/wrk-rig.mjs: POSTs the JSON body in the file $BODY_FILE on every request,
-- and at the end prints one line, "wrk-figures {json}": requests, duration, errors by kind,
-- latency percentiles and wrk's own CPU time (utime + stime of its whole process, all threads,
-- from /proc/self/stat), so the rig's cost is measured without sampling a process about to exit.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"

done = function(summary, latency, requests)
  local stat = assert(io.open("/proc/self/stat", "r"))
  local line = stat:read("*a")
  stat:close()
  -- Fields after the command name "(wrk) ": state is the 1st, utime the 12th, stime the 13th.
  local fields = {}
  for field in line:match("%) (.*)"):gmatch("%S+") do
    fields[#fields + 1] = field
  end
  local e = summary.errors
  io.write(string.format(
    'wrk-figures {"requests":%d,"durationUs":%d,"bytes":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50Us":%d,"p99Us":%d,"userTicks":%d,"sysTicks":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), tonumber(fields[12]), tonumber(fields[13])))
end
