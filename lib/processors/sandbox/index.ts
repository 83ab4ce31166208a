import type { Processor } from "../types";
import { sandboxBoletoProvider } from "./boleto";
import { sandboxCardAcquirer } from "./cards";
import { sandboxPixProvider } from "./pix";

export { SANDBOX_TEST_CARDS, sandboxCardOutcome } from "./cards";
export { SANDBOX_BOLETO } from "./boleto";

/** The built-in processor (`acquirerType: "sandbox"`): decides in-process, moves no real money. */
export const sandboxProcessor: Processor = {
  name: "sandbox",
  card: sandboxCardAcquirer,
  pix: sandboxPixProvider,
  boleto: sandboxBoletoProvider,
};
