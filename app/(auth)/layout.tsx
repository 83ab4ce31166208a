import Link from "next/link";
import { BrandMark } from "@/components/dashboard/BrandMark";
import s from "@/components/dashboard/auth.module.css";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className={s.page}>
      <aside className={s.aside}>
        <Link href="/" className={s.brand}>
          <BrandMark size={32} />
          Arara
        </Link>
        <div className={s.pitch}>
          <h2>Receba por PIX, boleto e cartão com uma única integração.</h2>
          <ul>
            <li>Checkout hospedado e links de pagamento</li>
            <li>Saldo, extrato e saques PIX em tempo real</li>
            <li>Webhooks assinados com reenvio pelo painel</li>
          </ul>
        </div>
        <p className={s.foot}>Ambiente sandbox: nenhuma cobrança real é feita.</p>
      </aside>
      <main className={s.content}>
        <div className={s.panel}>
          <Link href="/" className={s.mobileBrand}>
            <BrandMark />
            Arara
          </Link>
          {children}
        </div>
      </main>
    </div>
  );
}
