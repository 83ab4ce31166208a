/**
 * The copy buttons of the checkout (PIX copy-and-paste, boleto line) work before React hydrates.
 * On a slow phone the page's JavaScript arrives and runs seconds after the HTML is on screen, and
 * copying the code is the one thing the payer came to do. Shell renders this script inline with the
 * request's CSP nonce (no 'unsafe-inline'); it listens for clicks on `button[data-copy]` and, until
 * the button's React component has mounted (it then sets `data-copy-live`), copies and gives the
 * same feedback the component gives: the label, the class, the icon and the live region.
 *
 * Handing over without a double copy or a hydration mismatch:
 * - before hydration the click is handled here and stopped (capture phase on window), so React
 *   never sees it; after `data-copy-live` it is left to React alone;
 * - the texts it changes sit in elements marked suppressHydrationWarning (React keeps the DOM's
 *   text), and the state it shows is written to `data-copy-state` / `data-copy-until`, which
 *   CopyButton reads when it mounts to carry on from there (and to reset it in time);
 * - its own reset timer does nothing once the component is live.
 */

/** The copy icon and the check mark (CopyButton draws the same paths). */
export const COPY_ICON_PATH =
  "M8 8V5.5A1.5 1.5 0 0 1 9.5 4h9A1.5 1.5 0 0 1 20 5.5v9a1.5 1.5 0 0 1-1.5 1.5H16M5.5 8h9A1.5 1.5 0 0 1 16 9.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 4 18.5v-9A1.5 1.5 0 0 1 5.5 8Z";
export const COPIED_ICON_PATH = "m5 12.5 4.5 4.5L19 7.5";

/** How long "copied" / "could not copy" stays (ms). */
export const COPY_FEEDBACK_MS = 4000;

/*
 * Data attributes of the button: data-copy (the text), data-copy-labels ("idle|copied|failed"),
 * data-copy-classes ("idle|copied" button classes), data-copy-status (the live region's id),
 * data-copy-status-classes ("hidden|failed" region classes), data-copy-select (the element whose
 * text is selected when the clipboard is refused).
 */
const source = `(function(){
var P=${JSON.stringify([COPY_ICON_PATH, COPIED_ICON_PATH])},MS=${COPY_FEEDBACK_MS};
function paint(b,st){var d=b.dataset,L=d.copyLabels.split("|"),C=d.copyClasses.split("|"),r=document.getElementById(d.copyStatus),k=r&&d.copyStatusClasses.split("|");
var t=b.lastChild;if(t&&t.nodeType===3)t.nodeValue=st==="copied"?L[1]:L[0];
b.className=st==="copied"?C[1]:C[0];var p=b.querySelector("path");if(p)p.setAttribute("d",st==="copied"?P[1]:P[0]);
if(r){r.textContent=st==="copied"?L[1]:st==="failed"?L[2]:"";r.className=st==="failed"?k[1]:k[0];}}
addEventListener("click",function(e){var b=e.target&&e.target.closest?e.target.closest("button[data-copy]"):null;
if(!b||b.hasAttribute("data-copy-live"))return;e.preventDefault();e.stopImmediatePropagation();
var d=b.dataset;function done(st){if(b.hasAttribute("data-copy-live"))return;
if(st==="failed"&&d.copySelect){var el=document.getElementById(d.copySelect);if(el){var g=document.createRange();g.selectNodeContents(el);var s=getSelection();s.removeAllRanges();s.addRange(g);}}
var until=Date.now()+MS;d.copyState=st;d.copyUntil=String(until);paint(b,st);
setTimeout(function(){if(b.hasAttribute("data-copy-live")||d.copyUntil!==String(until))return;d.copyState="idle";paint(b,"idle");},MS);}
try{navigator.clipboard.writeText(d.copy).then(function(){done("copied")},function(){done("failed")});}catch(x){done("failed")}
},true);})();`;

/** The script's text (for a `<script nonce>`): whitespace-trimmed, about 1.4 kB. */
export const EARLY_COPY_SCRIPT = source.replace(/\n/g, "");
