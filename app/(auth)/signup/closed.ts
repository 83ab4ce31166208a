/** What /signup says, and its action answers, when SIGNUP=closed (lib/env.ts). */
export const SIGNUP_CLOSED_MESSAGE =
  "Nesta instalação do Arara, novas contas são criadas pelo operador do servidor (com npm run account:create). Peça o seu acesso a quem administra este Arara.";
