-- POST /echo for wrk: the same body as ECHO_BODY in bench/app.ts.
wrk.method = "POST"
wrk.body = '{"hello":"world","n":[1,2,3],"nested":{"ok":true}}'
wrk.headers["Content-Type"] = "application/json"
