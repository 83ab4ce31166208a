/**
 * The HTTP server hook (lib/http/request-guard.ts) on a real Node server whose own listener stands in
 * for Next (it records the URL it is given). The whole app behind it: security-abuse-process.test.ts.
 *
 * - TRACE and unknown methods on a known API path answer that path's own Allow list, the one a
 *   PATCH there gets, never methods the path does not take;
 * - on other paths the answer does not promise any path the server's whole list;
 * - an API path with a trailing slash reaches the app without it (Next would answer a 308 with a
 *   plain-text body, which a client that does not follow redirects on POST cannot read); pages keep it.
 */
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installRequestGuard } from "@/lib/http/request-guard";

let server: http.Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  installRequestGuard();
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`app saw ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Res = { status: number; headers: http.IncomingHttpHeaders; text: string; json: any };

function request(method: string, path: string, body?: string): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        let json: any = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Raw bytes on a socket: Node's parser refuses a method it does not know (FOO) before any request exists. */
function rawRequest(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(head));
    socket.setEncoding("latin1");
    socket.on("data", (d) => (out += d));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}

const ALL = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

describe("405 answers name the methods of the path asked", () => {
  it("TRACE /api/v1/transactions answers the Allow of PATCH on the same path", async () => {
    const patch = await request("PATCH", "/api/v1/transactions");
    expect(patch.status).toBe(405);
    expect(patch.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    const trace = await request("TRACE", "/api/v1/transactions");
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe(patch.headers.allow);
    expect(trace.json).toMatchObject({ success: false, status: 405, code: "method_not_allowed" });
    expect(trace.json.message).toContain("TRACE");
    expect(trace.json.message).toContain("GET, POST, HEAD, OPTIONS");
    expect(trace.json.message).not.toMatch(/PATCH|DELETE|PUT/);
  });

  it("PROPFIND and TRACE on /v1 paths and paths with ids too", async () => {
    for (const [method, path, allow] of [
      ["PROPFIND", "/api/v1/company", "GET, HEAD, OPTIONS"],
      ["TRACE", "/v1/transactions/7/refund", "POST, OPTIONS"],
      ["TRACE", "/api/v1/cashOut/request?x=1", "POST, OPTIONS"],
    ] as const) {
      const res = await request(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.json.code).toBe("method_not_allowed");
    }
  });

  it("the hosted checkout's endpoints too: GET on the payment endpoint is a 405 with its Allow and the one error body", async () => {
    for (const [method, path, allow] of [
      ["GET", "/checkout/AbC123/pay", "POST, OPTIONS"],
      ["PUT", "/checkout/%FF/pay", "POST, OPTIONS"],
      ["POST", "/checkout/AbC123/status", "GET, HEAD, OPTIONS"],
      ["DELETE", "/checkout/AbC123/qr.png", "GET, HEAD, OPTIONS"],
    ] as const) {
      const res = await request(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.json).toMatchObject({ success: false, status: 405, code: "method_not_allowed" });
    }
    const served = await request("POST", "/checkout/AbC123/pay");
    expect(served.status).toBe(200); // the stand-in for Next got it
  });

  it("an unknown method Node's parser refuses (FOO) on a known API path gets that path's Allow too", async () => {
    const out = await rawRequest("FOO /api/v1/company HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(out).toMatch(/^HTTP\/1\.1 405 /);
    expect(out).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/);
    const body = JSON.parse(out.slice(out.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({ success: false, status: 405, code: "method_not_allowed" });
    expect(body.message).toContain("/api/v1/company");
    expect(body.message).not.toMatch(/POST|PATCH/);
  });

  it("elsewhere (pages, unknown paths) the server's methods, without promising them for the path", async () => {
    for (const path of ["/dashboard", "/api/v1/nope", "/"]) {
      const res = await request("TRACE", path);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe(ALL);
      expect(res.json.code).toBe("method_not_allowed");
      expect(res.json.message).toContain("TRACE");
      expect(res.json.message).not.toMatch(/use one of/);
    }
    const out = await rawRequest("FOO /dashboard HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(out).toMatch(/^HTTP\/1\.1 405 /);
    expect(out).toContain(`\r\nAllow: ${ALL}\r\n`);
    expect(out).not.toMatch(/use one of/);
  });
});

describe("an API path with a trailing slash is the same path", () => {
  it("reaches the app without the slash, its query kept; /api/v1 and /v1 alike", async () => {
    for (const [method, path, expected] of [
      ["POST", "/api/v1/transactions/", "/api/v1/transactions"],
      ["GET", "/api/v1/transactions/?page=2&limit=5", "/api/v1/transactions?page=2&limit=5"],
      ["GET", "/v1/transactions/1000/", "/v1/transactions/1000"],
      ["POST", "/v1/transactions//", "/v1/transactions"],
      ["GET", "/api/v1/openapi.json/", "/api/v1/openapi.json"],
    ] as const) {
      seen.length = 0;
      const res = await request(method, path, method === "POST" ? "{}" : undefined);
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(seen).toEqual([`${method} ${expected}`]);
    }
  });

  it("the 405 of a known API path holds with the slash too", async () => {
    const res = await request("DELETE", "/api/v1/transactions/");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
  });

  it("pages and paths outside the API reach the app as they came (Next's own redirect keeps answering them)", async () => {
    for (const path of ["/dashboard/", "/checkout/abc/", "/docs/", "/api/v1/", "/v1/", "/api/auth/session/", "/api/v1x/y/"]) {
      seen.length = 0;
      await request("GET", path);
      expect(seen).toEqual([`GET ${path}`]);
    }
  });
});

describe("a path with a malformed percent-escape names its characters literally", () => {
  it("reaches the app with the undecodable segments' % written %25, so every segment decodes as Next decodes it", async () => {
    for (const [method, path, expected] of [
      ["GET", "/api/v1/transactions/%FF", "/api/v1/transactions/%25FF"],
      ["GET", "/api/v1/cashOut/%C3", "/api/v1/cashOut/%25C3"],
      ["GET", "/v1/transactions/%FF", "/v1/transactions/%25FF"],
      ["GET", "/api/v1/transactions/%ZZ?x=%FF", "/api/v1/transactions/%25ZZ?x=%FF"],
      ["POST", "/api/v1/transactions/%FF/refund", "/api/v1/transactions/%25FF/refund"],
      ["GET", "/checkout/%FF", "/checkout/%25FF"],
      ["GET", "/checkout/%C3%A3%FF/status", "/checkout/%25C3%25A3%25FF/status"],
      // A trailing slash is still dropped on the API.
      ["GET", "/api/v1/transactions/%FF/", "/api/v1/transactions/%25FF"],
    ] as const) {
      seen.length = 0;
      const res = await request(method, path, method === "POST" ? "{}" : undefined);
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(seen).toEqual([`${method} ${expected}`]);
      for (const segment of expected.split("?")[0].split("/")) expect(() => decodeURIComponent(segment)).not.toThrow();
    }
  });

  it("segments that decode are left as sent, and the 405 of a known API path still holds", async () => {
    for (const path of ["/api/v1/transactions/%31%32", "/checkout/%C3%A3", "/api/v1/transactions/a%2Fb", "/v1/transactions/1"]) {
      seen.length = 0;
      await request("GET", path);
      expect(seen).toEqual([`GET ${path}`]);
    }
    const res = await request("DELETE", "/api/v1/transactions/%FF");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
  });
});
