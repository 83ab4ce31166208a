"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { signOut } from "next-auth/react";
import { BrandMark } from "./BrandMark";
import { LinkPending } from "./NavigationPending";
import s from "./shell.module.css";

const LINKS = [
  { href: "/dashboard", label: "Visão geral", icon: "M3 13h8V3H3v10zm0 8h8v-6H3v6zm10 0h8V11h-8v10zm0-18v6h8V3h-8z" },
  { href: "/dashboard/transactions", label: "Transações", icon: "M4 6h16M4 12h16M4 18h10" },
  { href: "/dashboard/statement", label: "Extrato", icon: "M6 3h9l5 5v13H6V3zm9 0v5h5M9 13h8M9 17h6" },
  { href: "/dashboard/cash-out", label: "Saques", icon: "M12 3v12m0 0l-4-4m4 4l4-4M5 21h14" },
  { href: "/dashboard/payment-links", label: "Links de pagamento", icon: "M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1" },
  { href: "/dashboard/developers", label: "Desenvolvedores", icon: "M8 9l-4 3 4 3M16 9l4 3-4 3M13 6l-2 12" },
  { href: "/dashboard/settings", label: "Configurações", icon: "M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1M15 4v4M9 10v4M17 16v4" },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

export function Nav({ accountName, userEmail }: { accountName: string; userEmail: string }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const router = useRouter();
  const menuButton = useRef<HTMLButtonElement>(null);

  // The phone menu closes on Escape, wherever focus is, and gives focus back to its button (so the
  // keyboard is not left on a link that is now hidden).
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  async function onSignOut() {
    setSigningOut(true);
    await signOut({ redirect: false });
    router.replace("/login?signedOut=1");
    router.refresh();
  }

  return (
    <div className={s.navWrap} data-open={open}>
      <div className={s.brandRow}>
        <Link href="/dashboard" className={s.brand}>
          <BrandMark />
          <span>Arara</span>
        </Link>
        <span className={s.sandboxTag} title="Todas as transações são de teste (adquirente sandbox)">
          Sandbox
        </span>
        <button
          ref={menuButton}
          type="button"
          className={s.menuButton}
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((o) => !o)}
        >
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
            {open ? (
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            ) : (
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
          <span className={s.srOnly}>{open ? "Fechar menu" : "Abrir menu"}</span>
        </button>
      </div>
      <nav id={menuId} className={s.nav} aria-label="Painel">
        <ul>
          {LINKS.map((l) => {
            const active = isActive(pathname, l.href);
            return (
              <li key={l.href}>
                <Link
                  href={l.href}
                  className={s.navLink}
                  aria-current={active ? "page" : undefined}
                  onClick={() => setOpen(false)}
                >
                  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                    <path d={l.icon} />
                  </svg>
                  {l.label}
                  <LinkPending />
                </Link>
              </li>
            );
          })}
        </ul>
        <div className={s.account}>
          <div className={s.accountName}>{accountName}</div>
          <div className={s.accountEmail}>{userEmail}</div>
          <button type="button" className={s.signOut} onClick={onSignOut} disabled={signingOut}>
            {signingOut ? "Saindo…" : "Sair"}
          </button>
        </div>
      </nav>
    </div>
  );
}
