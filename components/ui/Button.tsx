import type { ButtonHTMLAttributes } from "react";
import s from "./ui.module.css";

export function Button({
  variant = "primary",
  block,
  className,
  ...rest
}: { variant?: "primary" | "secondary" | "ghost"; block?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button className={[s.button, s[variant], block ? s.block : "", className ?? ""].join(" ")} {...rest} />;
}

export const buttonClass = (variant: "primary" | "secondary" | "ghost" = "primary", block = false) =>
  [s.button, s[variant], block ? s.block : ""].join(" ");
