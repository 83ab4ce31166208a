import { z } from "zod";
import { SANDBOX_TEST_MOVES, TRANSACTION_STATUSES } from "@/lib/domain/status";

/**
 * Body of `PUT /api/v1/transactions/{id}/test`: the status to move to (any case). Whether the move
 * is allowed from the current status is the transition table's call (lib/domain/status.ts).
 */
export const SandboxMoveRequest = z
  .object({
    status: z
      .string({ error: "is required" })
      .trim()
      .toLowerCase()
      .pipe(z.enum(TRANSACTION_STATUSES, { error: `must be one of ${SANDBOX_TEST_MOVES.join(", ")}` }))
      .meta({ description: `Target status: ${SANDBOX_TEST_MOVES.join(", ")} (any case)` }),
  })
  .meta({ id: "SandboxMove", description: "A simulated PSP or acquirer event (sandbox only)" });
export type SandboxMoveRequest = z.output<typeof SandboxMoveRequest>;
