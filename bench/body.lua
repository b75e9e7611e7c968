-- Uploads for wrk: `wrk -s body.lua <url> <bytes>` POSTs a body of that many bytes on every request.
function init(args)
  wrk.method = "POST"
  wrk.body = string.rep("u", tonumber(args[1]))
  wrk.headers["Content-Type"] = "application/octet-stream"
end
