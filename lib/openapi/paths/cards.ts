/** Operations of the Cards tag: tokenization from the payer's browser. */
import { z } from "zod";
import { CardInput } from "@/lib/domain/card/validate";
import { apiGroup } from "./group";


const card = {
  number: "4111111111111111",
  holderName: "MARIA SILVA",
  expirationMonth: "12",
  expirationYear: "2030",
  cvv: "123",
};

export const CARDS = apiGroup({ name: "Cards", description: "Card tokenization from the payer's browser (public key only)." }, [
  {
    method: "post",
    path: "/api/v1/card-token",
    operationId: "createCardToken",
    summary: "Tokenize a card",
    description:
      "Called from the payer's browser with your public key; the card never reaches your server. Returns the token as plain text (not JSON): pass it as `card.hash` when creating a credit_card transaction. Valid 5 minutes, single use, bound to your account. Fields may be strings or numbers; a `{ card: {...} }` wrapper is accepted. Open to every origin (CORS). Limited per public key (CARD_TOKEN_LIMIT_PER_KEY, default 600 a minute) and per address (CARD_TOKEN_LIMIT_PER_ADDRESS, default 60 a minute): beyond either, 429 `rate_limited` with `Retry-After`.",
    auth: "publicKey",
    errors: ["rate_limited"],
    query: z.object({ publicKey: z.string().meta({ description: "Your public key, pk_test_..." }) }),
    body: {
      schema: z.union([CardInput, z.object({ card: CardInput })]),
      description: "The card: number (Luhn-valid, 12-19 digits), holderName, expirationMonth (MM), expirationYear (YYYY), cvv (3, or 4 for Amex)",
      example: card,
      examples: { wrapped: { card } },
    },
    responses: {
      200: {
        description: "The card token (text/plain)",
        contentType: "text/plain",
        text: "An opaque signed token (AES-256-GCM), no quotes",
        example: "ct_v1.AbC...",
      },
    },
    notes: ["Card data is never stored or logged: the transaction keeps brand, first 6 and last 4 digits, holder name and expiry."],
  },
  {
    method: "get",
    path: "/api/v1/js",
    operationId: "getBrowserScript",
    summary: "Browser tokenization script",
    description:
      "A script for merchants who build their own card form: `Arara.setPublicKey(pk)` then `Arara.encrypt(card)` resolves to a card token. Include it with `<script src=\"{base_url}/api/v1/js\"></script>`.",
    auth: "none",
    responses: {
      200: { description: "JavaScript", contentType: "application/javascript", text: "The tokenization script", example: "/* Arara.js */" },
    },
  },
]);
