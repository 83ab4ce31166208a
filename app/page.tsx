import Link from "next/link";

export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: "0 auto", padding: "48px 20px", lineHeight: 1.6 }}>
      <h1>Arara</h1>
      <p>Gateway de pagamentos para o Brasil: PIX, boleto e cartão de crédito, com checkout hospedado.</p>
      <ul>
        <li>
          <Link href="/api/v1/health">Status da API</Link>
        </li>
      </ul>
    </main>
  );
}
