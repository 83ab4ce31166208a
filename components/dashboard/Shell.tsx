import { Nav } from "./Nav";
import { NavigationPendingProvider } from "./NavigationPending";
import s from "./shell.module.css";

export function Shell({ accountName, userEmail, children }: { accountName: string; userEmail: string; children: React.ReactNode }) {
  return (
    <NavigationPendingProvider>
      <div className={s.shell}>
        <a href="#conteudo" className={s.skip}>
          Pular para o conteúdo
        </a>
        <aside className={s.sidebar}>
          <Nav accountName={accountName} userEmail={userEmail} />
        </aside>
        <main id="conteudo" className={s.main} tabIndex={-1}>
          {children}
        </main>
      </div>
    </NavigationPendingProvider>
  );
}
