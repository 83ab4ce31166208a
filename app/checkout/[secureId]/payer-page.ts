import { dictionary, htmlLang, LANG_COOKIE, parseLocale, type Dictionary, type Locale } from "@/components/checkout/i18n";

/**
 * The checkout's files (boleto.pdf, qr.png) opened by a payer's browser when there is no file to
 * give: a small page in the payer's language (the checkout's cookie, else Portuguese) saying why,
 * with the way to the charge's page when there is one, instead of the API's English JSON. Only
 * when the request takes HTML (a navigation, a download); an API client keeps its JSON error.
 */
export function acceptsHtml(req: Request): boolean {
  return /\btext\/html\b/i.test(req.headers.get("accept") ?? "");
}

export function payerLocale(req: Request): Locale {
  const cookie = (req.headers.get("cookie") ?? "")
    .split(";")
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${LANG_COOKIE}=`));
  return parseLocale(cookie?.slice(LANG_COOKIE.length + 1)) ?? "pt";
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function payerPage(
  req: Request,
  status: 404 | 410,
  words: (t: Dictionary) => { title: string; text: string },
  chargePath: string | null,
): Response {
  const locale = payerLocale(req);
  const t = dictionary(locale);
  const { title, text } = words(t);
  // The checkout's proxy gives this request a nonce and a CSP naming it (qr.png); boleto.pdf gets no
  // CSP from it, so the page states its own, with the same nonce when there is one.
  const nonce = req.headers.get("x-nonce") ?? Buffer.from(crypto.randomUUID()).toString("base64");
  const link = chargePath ? `<p><a href="${escape(chargePath)}">${escape(t.outcome.check)}</a></p>` : "";
  const html = `<!doctype html>
<html lang="${htmlLang(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escape(title)}</title>
<style nonce="${escape(nonce)}">
body { margin: 0; background: #f3f5f7; color: #111827; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: anywhere; }
main { max-width: 480px; margin: 48px auto; padding: 28px 20px; background: #fff; border: 1px solid #e5e7eb; border-radius: 16px; text-align: center; }
h1 { margin: 0 0 8px; font-size: 1.375rem; line-height: 1.25; }
p { margin: 8px 0 0; color: #374151; }
a { display: inline-block; min-height: 44px; line-height: 44px; color: #0f5e57; font-weight: 600; text-underline-offset: 3px; }
a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p>${escape(text)}</p>
${link}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    },
  });
}
