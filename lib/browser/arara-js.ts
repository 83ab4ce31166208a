/**
 * The browser script served at GET /api/v1/js for merchants who build their own card form:
 *
 *   <script src="https://gateway.example/api/v1/js"></script>
 *   Arara.setPublicKey("pk_test_...");
 *   const token = await Arara.encrypt({ number, holderName, expirationMonth, expirationYear, cvv });
 *   // send `token` to your backend as card.hash
 *
 * It posts to the card-token endpoint of the host it was loaded from, so card data goes from the
 * payer's browser to the gateway and never through the merchant's server. On a 400 the promise
 * rejects with an Error whose `errors` lists the bad fields.
 */
export const ARARA_JS = `(function () {
  "use strict";
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src, location.href).origin : location.origin;
  var publicKey = null;
  function setPublicKey(pk) {
    if (typeof pk !== "string" || pk.indexOf("pk_") !== 0) throw new Error("Arara: setPublicKey expects your public key (pk_...).");
    publicKey = pk;
  }
  function encrypt(card) {
    if (!publicKey) return Promise.reject(new Error("Arara: call Arara.setPublicKey(pk) first."));
    return fetch(origin + "/api/v1/card-token?publicKey=" + encodeURIComponent(publicKey), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(card || {}),
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
  window.Arara = { setPublicKey: setPublicKey, encrypt: encrypt };
})();
`;
