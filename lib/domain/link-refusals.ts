/**
 * What the hosted checkout's pay route answers when a payment link takes no charge for a reason that
 * is not a field (422 without field errors). The payer's page (components/checkout/refusal.ts) tells
 * these apart by these exact texts, so server and page read them from here and cannot drift apart.
 */
export const LINK_REFUSAL = {
  /** The link's time ran out. */
  expired: "This payment link has expired.",
  /** Too many refused cards for the order (other methods may still be offered). */
  cardLimit: "Too many refused attempts for this order; contact the merchant.",
  /** The link issued every charge it may. */
  linkLimit: "Too many payment attempts for this link; contact the merchant.",
} as const;
