-- wrk script: POST /v1/batch with EVENTS events a request (default 100), each with a unique messageId,
-- shaped as the runtime sends them, context and integrations included (about 700 bytes an event).
-- Used by bench.py.
local events_per_batch = tonumber(os.getenv("EVENTS") or "100")
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  prefix = string.format("%d-%d-", id, os.time())
  counter = 0
  head = '{"type":"track","event":"CTRL_HOME_FAVORITE","properties":{"position":2,"source":"home"},'
    .. '"timestamp":"2026-11-23T10:00:00.123Z","anonymousId":"3f2c5d1e-8a7b-4c6d-9e0f-112233445566",'
    .. '"context":{"app":{"name":"Shop","version":"2.1","build":"210","namespace":"com.example.shop"},"device":{"model":"iPhone15,2","manufacturer":"Apple","type":"ios"},"os":{"name":"iOS","version":"18.1"},"locale":"en-GB","timezone":"Europe/London","screen":{"width":393,"height":852,"density":3.0},"library":{"name":"trackc","version":"0.2.0"},"trackc":{"source":"control","handler":"onFavBtnPressed(_:)","screen":"HomeViewController"}},'
    .. '"integrations":{"All":false,"firebase":true,"mixpanel":true},"messageId":"0193f5c2-'
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local parts = {}
  for i = 1, events_per_batch do
    parts[i] = head .. prefix .. counter .. "-" .. i .. '"}'
  end
  local body = '{"batch":[' .. table.concat(parts, ",") .. '],"sentAt":"2026-11-23T10:00:01.000Z"}'
  return wrk.format(nil, "/v1/batch", nil, body)
end
