import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Arara", template: "%s · Arara" },
  description: "Pagamentos por PIX, boleto e cartão.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#0f766e" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The app speaks Brazilian Portuguese; the API reference (/docs) is in English (set by proxy.ts).
  const lang = (await headers()).get("x-arara-page-lang") === "en" ? "en" : "pt-BR";
  return (
    <html lang={lang}>
      <body>{children}</body>
    </html>
  );
}
