import { withApiKey } from "@/lib/http/handler";
import { ok } from "@/lib/http/envelope";
import { parseWith } from "@/lib/http/body";
import { SandboxMoveRequest } from "@/lib/schemas/sandbox";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { transactionView } from "@/lib/http/dialect-views";

export const PUT = withApiKey(async (_req, ctx) => {
  const { status } = parseWith(SandboxMoveRequest, ctx.body, "request");
  return ok(transactionView(ctx, await sandboxMove(ctx, ctx.params.id, status)));
});
