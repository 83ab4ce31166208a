/**
 * Every API answer carries its request id, as docs/api.md says: the X-Request-Id header and, on an
 * error, `requestId` in the body, the two the same. Before: GET /api/v1/js had no header, the 404 of
 * an unknown API path had no requestId in its body, and the 405 of a method Node's parser refuses
 * (FOO) had neither.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { installRequestGuard } from "@/lib/http/request-guard";

describe("X-Request-Id and requestId", () => {
  it.each(["/api/v1/js", "/v1/js"])("GET %s carries X-Request-Id (a given valid one is kept), and keeps its own caching", async (path) => {
    const res = await call("GET", path);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    const given = await call("GET", path, { headers: { "x-request-id": "req-1234567890" } });
    expect(given.headers.get("x-request-id")).toBe("req-1234567890");
  });

  it.each([
    ["GET", "/api/v1/nope"],
    ["POST", "/api/v1/transactions/1/nope"],
    ["DELETE", "/api/v1/a/b/c"],
    ["GET", "/v1/nope"],
    ["POST", "/v1/transactions/1/nope"],
  ])("the 404 of %s %s has requestId in its body, equal to X-Request-Id", async (method, path) => {
    const res = await call(method, path);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, status: 404, code: "not_found", message: `No API route ${method} ${path}.` });
    expect(res.body.requestId).toBeTruthy();
    expect(res.body.requestId).toBe(res.headers.get("x-request-id"));
  });

  it("the 404 of an unknown PSP webhook token has requestId in its body too", async () => {
    const res = await call("POST", "/api/v1/psp/api-pix/no-such-token-0123456789/pix", { body: { pix: [] } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "not_found", message: "No such webhook." });
    expect(res.body.requestId).toBe(res.headers.get("x-request-id"));
  });
});

describe("the 405 of a method Node's parser refuses (FOO)", () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    installRequestGuard();
    server = http.createServer((_req, res) => res.end("app"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function raw(head: string): Promise<string> {
    return new Promise((resolve, reject) => {
      let out = "";
      const socket = net.connect(port, "127.0.0.1", () => socket.write(head));
      socket.setEncoding("latin1");
      socket.on("data", (d) => (out += d));
      socket.on("end", () => resolve(out));
      socket.on("error", reject);
    });
  }

  it.each(["/api/v1/company", "/api/v1/nope", "/v1/transactions"])("FOO %s: requestId in the body and X-Request-Id, the same", async (path) => {
    // A request of the server's first connection hooks it; FOO is then refused by its parser.
    await new Promise<void>((resolve) => http.get({ host: "127.0.0.1", port, path: "/" }, (r) => r.resume().on("end", resolve)));
    const out = await raw(`FOO ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 405 /);
    const header = /\r\nX-Request-Id: ([^\r]+)\r\n/i.exec(out)?.[1];
    expect(header).toMatch(/^[0-9a-f-]{36}$/);
    const body = JSON.parse(out.slice(out.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({ success: false, status: 405, code: "method_not_allowed", requestId: header });
  });

  it("TRACE (answered by the hook, not the parser) has them too", async () => {
    const res = await new Promise<{ headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method: "TRACE", path: "/api/v1/company" }, (r) => {
        let text = "";
        r.setEncoding("utf8");
        r.on("data", (d) => (text += d));
        r.on("end", () => resolve({ headers: r.headers, text }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(JSON.parse(res.text).requestId).toBe(res.headers["x-request-id"]);
  });
});
