"use client";

import { useState } from "react";
import { EARLY_COPY_SCRIPT } from "./early-copy";
import { useHydrated } from "./hydrated";

/**
 * The early copy script (early-copy.ts), in the server's HTML only. It is there for the first load,
 * before hydration: the browser runs it as it parses the page, and its window listener then lasts
 * for the life of the document, client-side navigations included. React never runs a `<script>` it
 * creates on the client (and says so in the console), so when the page is reached by a client
 * navigation (the decline moving a link to the retry screen, say) there is nothing to render: the
 * listener is already there. Whether this mount is the hydration of the server's HTML is decided
 * once, at mount: during hydration useHydrated is still false and the server's element is kept as
 * it is (not re-created, not removed); a mount after hydration renders nothing.
 */
export function EarlyCopyScript({ nonce }: { nonce: string }) {
  const hydrated = useHydrated();
  const [fromServer] = useState(!hydrated);
  // Browsers hide a nonce from the DOM once read, hence suppressHydrationWarning.
  return fromServer ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: EARLY_COPY_SCRIPT }} suppressHydrationWarning /> : null;
}
