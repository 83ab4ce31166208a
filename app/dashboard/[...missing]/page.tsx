import { notFound } from "next/navigation";

// Any address under /dashboard that no page answers: the dashboard's own "Não encontrado", inside
// its shell, instead of the framework's English 404.
export default function MissingDashboardPage() {
  notFound();
}
