/**
 * The browser script served at GET /api/v1/js (and /v1/js) for merchants who build their own card form:
 *
 *   <script src="https://gateway.example/api/v1/js"></script>
 *   Arara.setPublicKey("pk_test_...");
 *   const token = await Arara.encrypt({ number, holderName, expirationMonth, expirationYear, cvv });
 *   // send `token` to your backend as card.hash
 *
 * It posts to the card-token endpoint of the host it was loaded from, so card data goes from the
 * payer's browser to the gateway and never through the merchant's server. On a 400 the promise
 * rejects with an Error whose `errors` lists the bad fields.
 *
 * Stores written for other gateways of this API family call the same object by their own names: it
 * is also `Payout`, `JunglePagamentos` and the generic `PaymentGateway` (BROWSER_ALIASES). For them,
 * `setPublicKey` may be awaited (it returns a resolved promise), `setTestMode` is accepted and does
 * nothing (the key alone says sandbox or live), `publicKey` reads the key set, and `encrypt` takes
 * `expMonth` / `expYear` as well as `expirationMonth` / `expirationYear`.
 */

/** The global names the script defines, Arara first. */
export const BROWSER_GLOBALS = ["Arara", "Payout", "JunglePagamentos", "PaymentGateway"] as const;
/** The family's names among them (docs/switching.md). */
export const BROWSER_ALIASES = BROWSER_GLOBALS.slice(1);

export const ARARA_JS = `(function () {
  "use strict";
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src, location.href).origin : location.origin;
  var publicKey = null;
  function setPublicKey(pk) {
    if (typeof pk !== "string" || pk.indexOf("pk_") !== 0) throw new Error("Arara: setPublicKey expects your public key (pk_...).");
    publicKey = pk;
    return Promise.resolve();
  }
  function setTestMode() {}
  function pick(card, name, alias) {
    return card[name] !== undefined && card[name] !== null ? card[name] : card[alias];
  }
  function encrypt(card) {
    if (!publicKey) return Promise.reject(new Error("Arara: call setPublicKey(pk) first."));
    card = card || {};
    if (card.card && typeof card.card === "object") card = card.card;
    var fields = {
      number: card.number,
      holderName: card.holderName,
      expirationMonth: pick(card, "expirationMonth", "expMonth"),
      expirationYear: pick(card, "expirationYear", "expYear"),
      cvv: card.cvv
    };
    return fetch(origin + "/api/v1/card-token?publicKey=" + encodeURIComponent(publicKey), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fields),
      credentials: "omit"
    }).then(function (res) {
      return res.text().then(function (text) {
        if (res.ok) return text;
        var body = null;
        try { body = JSON.parse(text); } catch (e) {}
        var err = new Error((body && body.message) || "Arara: card tokenization failed (HTTP " + res.status + ").");
        err.status = res.status;
        err.errors = (body && body.errors) || [];
        throw err;
      });
    });
  }
  var api = { setPublicKey: setPublicKey, setTestMode: setTestMode, encrypt: encrypt };
  Object.defineProperty(api, "publicKey", { get: function () { return publicKey; }, enumerable: true });
  var names = ${JSON.stringify(BROWSER_GLOBALS)};
  for (var i = 0; i < names.length; i++) window[names[i]] = api;
})();
`;
