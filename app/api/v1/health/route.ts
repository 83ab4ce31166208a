import { withPublic } from "@/lib/http/handler";
import { json } from "@/lib/http/envelope";
import { databaseHealth } from "@/lib/services/health";

export const GET = withPublic(async () => {
  const h = await databaseHealth();
  return json({ status: h.ok ? "ok" : "degraded", database: h.kind }, h.ok ? 200 : 503);
});
