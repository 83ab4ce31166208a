/**
 * The checkout's words, in Brazilian Portuguese (the default) and English. Amounts stay in
 * "R$ 1.234,56" in both: the charge is in reais and that is how the payer's bank shows it.
 */
import { formatBRL } from "@/lib/domain/money";
import { REFUSAL_DESCRIPTION_OTHER, REFUSAL_DESCRIPTIONS } from "@/lib/core/refused-reason";
import { en } from "./i18n-en";
import { installmentSplit as split, unbroken, type InstallmentLabel } from "./format";

import type { Locale } from "@/lib/core/locale";
export { LANG_COOKIE, LOCALES, parseLocale, type Locale } from "@/lib/core/locale";

export type { InstallmentLabel } from "./format";

export const htmlLang = (l: Locale) => (l === "pt" ? "pt-BR" : "en");

const pt = {
  title: "Pagamento",
  secure: "Pagamento seguro",
  securedBy: "Pagamento seguro processado pela Arara",
  switchLang: "English",
  switchLangLabel: "Switch to English",
  sandboxBadge: "Modo de teste",
  sandboxBanner: "sem dinheiro real",
  total: "Total",
  orderTotal: "Total do pedido",
  amount: "Valor",
  totalToPay: "Total a pagar",
  items: (n: number) => (n === 1 ? "1 item" : `${n} itens`),
  showItems: "Ver itens do pedido",
  quantity: (q: number) => `Qtd. ${q}`,
  cnpj: "CNPJ",
  orderFrom: "Pedido em",
  status: {
    pending: "Aguardando pagamento",
    processing: "Processando pagamento",
    paid: "Pago",
    approved: "Aprovado",
    refused: "Recusado",
    refunded: "Estornado",
    chargedback: "Contestado",
    in_protest: "Em contestação",
    expired: "Expirado",
    open: "Aberto",
  },
  pix: {
    heading: "Pague com PIX",
    steps: [
      "Copie o código abaixo.",
      "No app do seu banco, escolha PIX › Copia e Cola.",
      "Cole o código e confirme o pagamento.",
    ],
    copy: "Copiar código PIX",
    copied: "Código copiado!",
    copyFailed: "Não foi possível copiar. Selecione o código e copie manualmente.",
    codeLabel: "Código PIX copia e cola",
    qrHeading: "Ou escaneie o QR code",
    qrHint: "Use a câmera do app do banco em outro aparelho.",
    qrAlt: (amount: number) => `QR code PIX de ${formatBRL(amount)}`,
    expiresIn: "Expira em",
    validUntil: (when: string) => `Válido até ${when}`,
    expiredTitle: "Este PIX expirou",
    expiredText: "O prazo para pagamento terminou e este código não pode mais ser pago. Peça um novo link à loja.",
    /** A PIX the shop made through the API (no payment link to ask again). */
    expiredTextCharge: "O prazo para pagamento terminou e este código não pode mais ser pago. Peça uma nova cobrança à loja.",
    /** qr.png of a PIX that is no longer waiting (paid, refunded, cancelled). */
    qrGoneTitle: "Este código PIX não está mais disponível",
    qrGoneText: "Este PIX não aguarda mais pagamento. Veja a situação do pagamento na página da cobrança.",
    waiting: "Aguardando a confirmação do banco. Esta página se atualiza sozinha.",
  },
  boleto: {
    heading: "Boleto bancário",
    due: "Vencimento",
    lineLabel: "Linha digitável",
    copy: "Copiar linha digitável",
    copied: "Linha digitável copiada!",
    copyFailed: "Não foi possível copiar. Selecione a linha e copie manualmente.",
    barcodeAlt: "Código de barras do boleto",
    pdf: "Baixar boleto em PDF",
    clearing: "Pagamentos por boleto são confirmados em até 3 dias úteis.",
    howTo: "Pague no app do seu banco, internet banking ou em uma lotérica.",
    expiredTitle: "Este boleto venceu",
    expiredText: "O prazo para pagamento terminou e este boleto não pode mais ser pago. Peça um novo link à loja.",
    expiredTextCharge: "O prazo para pagamento terminou e este boleto não pode mais ser pago. Peça uma nova cobrança à loja.",
  },
  card: {
    heading: "Cartão de crédito",
    number: "Número do cartão",
    holder: "Nome impresso no cartão",
    expiry: "Validade (MM/AA)",
    cvv: "Código de segurança (CVV)",
    cvvHint: (n: number) => `${n} dígitos ${n === 4 ? "na frente" : "no verso"}`,
    installments: "Parcelas",
    installment: (o: InstallmentLabel) =>
      o.count === 1
        ? `À vista · ${formatBRL(o.total)}`
        : o.interest
          ? `${split(o, "de")} · total ${formatBRL(o.total)}`
          : `${split(o, "de")} sem juros`,
    /**
     * Under the options, the chosen plan in full: a phone's closed select shows only the start of a long
     * option ("1x de R$ 91,00 + 10x de R$ 9…"), so the installments, whether they bear interest and the
     * card's total are said here again, each amount unbroken.
     */
    installmentTotal: (o: InstallmentLabel) => unbroken(`${split(o, "de")} sem juros: total no cartão ${formatBRL(o.total)}.`),
    interestNote: (o: InstallmentLabel, interest: number) =>
      unbroken(`${split(o, "de")} com juros do parcelamento (${formatBRL(interest)}): total no cartão ${formatBRL(o.total)}.`),
    pay: (amount: number) => `Pagar ${formatBRL(amount)}`,
    processing: "Processando pagamento…",
    /** The pay button until the page's code has loaded (before that a tap could do nothing, or worse). */
    loading: "Carregando pagamento seguro…",
    /** Shown instead of a working form when the browser runs no JavaScript. */
    noScriptTitle: "Ative o JavaScript para pagar",
    noScript:
      "O formulário de pagamento precisa de JavaScript: é ele que protege os dados do cartão antes de enviá-los. Ative o JavaScript neste navegador e recarregue a página, ou abra o link em outro navegador.",
    brand: (b: string) => `Bandeira: ${b}`,
    paidWith: (brand: string, last4: string) => `${brand} final ${last4}`,
    tryAgainHeading: "Tente com outro cartão",
    refusedTitle: "Pagamento recusado",
    // The same words /v1 gives a store as refusedReason.description (lib/core/refused-reason.ts).
    refused: { ...REFUSAL_DESCRIPTIONS, other: REFUSAL_DESCRIPTION_OTHER } as Record<string, string>,
    noMoreAttempts: "Não é possível tentar outro cartão para este pedido. Fale com a loja.",
    /** The same, above the link back to the payment link's other methods. */
    noMoreAttemptsLink: "Não é possível tentar outro cartão para este pedido. Escolha outra forma de pagamento abaixo ou fale com a loja.",
    secureNote: "Os dados do cartão são criptografados e não ficam com a loja.",
    errors: {
      numberEmpty: "Informe o número do cartão.",
      number: "Número do cartão inválido. Confira os dígitos.",
      brand: "Bandeira não aceita.",
      holder: "Informe o nome como está no cartão.",
      expiryEmpty: "Informe a validade do cartão (MM/AA).",
      expiry: "Validade inválida. Use MM/AA.",
      expired: "Cartão vencido.",
      cvvEmpty: "Informe o código de segurança (CVV).",
      cvv: (n: number) => `O código de segurança tem ${n} dígitos.`,
    },
  },
  link: {
    chooseHeading: "Como você quer pagar?",
    oneMethod: "Forma de pagamento",
    payerHeading: "Seus dados",
    name: "Nome completo",
    email: "E-mail",
    document: "CPF ou CNPJ",
    documentHint: "Usado apenas para emitir o pagamento.",
    methods: {
      pix: { title: "PIX", note: "Aprovação na hora" },
      boleto: { title: "Boleto", note: "Compensa em até 3 dias úteis" },
      credit_card: { title: "Cartão de crédito", note: "À vista" },
    },
    upTo: (n: number, free: number) => (free >= n ? `Em até ${n}x sem juros` : free > 1 ? `Em até ${n}x (${free}x sem juros)` : `Em até ${n}x`),
    cta: { pix: "Gerar código PIX", boleto: "Gerar boleto", credit_card: (a: number) => `Pagar ${formatBRL(a)}` },
    creating: "Gerando…",
    pending: (m: "pix" | "boleto" | "credit_card") => `Você já gerou ${{ pix: "um PIX", boleto: "um boleto", credit_card: "um pagamento com cartão" }[m]} para este pedido.`,
    continue: "Continuar pagamento",
    other: "Escolher outra forma de pagamento",
    expiredTitle: "Este link de pagamento expirou",
    expiredText: "Ele não aceita mais pagamentos. Fale com a loja para receber um novo link.",
    validUntil: (when: string) => `Link válido até ${when}`,
    errors: {
      method: "Escolha uma forma de pagamento.",
      name: "Informe nome e sobrenome.",
      email: "Informe um e-mail válido, como nome@exemplo.com.",
      document: "CPF ou CNPJ inválido. Confira os números.",
      documentEmpty: "Informe o CPF ou CNPJ.",
    },
  },
  support: { label: (m: string) => `Dúvidas sobre o pedido? Fale com ${m}:`, whatsapp: "WhatsApp" },
  acceptedBrands: "Bandeiras aceitas",
  lines: { label: "Resumo do pedido", items: "Itens", shipping: "Frete", discount: "Desconto", total: "Total" },
  last: {
    orderRef: "Pedido",
    txNumber: "Transação",
    backToStore: "Voltar para a loja",
    autoReturn: (s: number) => `Voltando para a loja em ${s} s…`,
    stay: "Ficar nesta página",
    receipt: (email: string) => `Enviamos o comprovante para ${email}.`,
  },
  /** The watcher of a pending charge cannot reach the server (no connection). */
  offline: "Sem conexão com a internet. Vamos conferir o pagamento assim que ela voltar; se você já pagou, não pague de novo.",
  pixWait: {
    button: "Já paguei",
    title: "Estamos confirmando seu pagamento",
    text: "O PIX costuma ser confirmado em poucos segundos, mas alguns bancos levam até alguns minutos. Esta página consulta o pagamento sozinha e muda assim que ele chegar: pode deixá-la aberta.",
    hint: "Se já passou muito tempo, confira no app do seu banco se o PIX foi concluído.",
    save: "Salvar QR code",
  },
  paid: {
    title: "Pagamento confirmado!",
    text: (amount: number, merchant: string) => unbroken(`Recebemos ${formatBRL(amount)} para ${merchant}.`),
    /** A card in installments with interest: what the card was charged, and the order's own total. */
    textInterest: (total: number, amount: number, count: number, merchant: string) =>
      unbroken(`Recebemos ${formatBRL(total)} para ${merchant} (pedido de ${formatBRL(amount)} em ${count}x com juros).`),
    via: { pix: "Pago com PIX", boleto: "Pago com boleto", credit_card: "Pago com cartão de crédito" } as Record<string, string>,
    at: (when: string) => `Pagamento em ${when}`,
    partlyRefunded: (amount: number) => unbroken(`Parte deste pagamento já foi devolvida a você: ${formatBRL(amount)}, pelo mesmo meio de pagamento.`),
    close: "A loja já foi avisada. Você pode fechar esta página.",
  },
  refunded: { title: "Pagamento estornado", text: "Este pagamento foi devolvido. O valor volta pelo mesmo meio de pagamento." },
  returned: {
    title: "Pagamento devolvido",
    text: "Este pedido já tinha sido pago de outra forma, então este pagamento foi devolvido integralmente a você, pelo mesmo meio.",
    onLink: (method: string, amount: number) =>
      `Outro pagamento deste pedido (${method}, ${formatBRL(amount)}) chegou depois e foi devolvido automaticamente a quem pagou.`,
    // Money received at the store's own PSP: returned by that PSP, said so only once it confirms.
    onLinkPending: (method: string, amount: number) =>
      `Outro pagamento deste pedido (${method}, ${formatBRL(amount)}) chegou depois e será devolvido a quem pagou; a devolução é feita pela instituição que o recebeu.`,
  },
  disputed: { title: "Pagamento em contestação", text: "Este pagamento foi contestado junto ao banco. Fale com a loja se tiver dúvidas." },
  processing: { title: "Processando pagamento", text: "Estamos aguardando a confirmação. Esta página se atualiza sozinha." },
  sandbox: {
    title: "Ambiente de testes",
    text: "Esta cobrança é de teste (sandbox): nenhum dinheiro real é movimentado.",
    button: "Simular pagamento (sandbox)",
    working: "Simulando…",
    failed: "Não foi possível simular o pagamento.",
    cards: "Cartões de teste: 4242 4242 4242 4242 aprova; 4000 0000 0000 0002 recusa.",
  },
  /** Why the server made no charge for this tap (refusal.ts): each says nothing was charged now. */
  outcome: {
    paidTitle: "Este pedido já foi pago.",
    paidCard: "Esta tentativa não foi cobrada: nenhum valor a mais foi lançado no seu cartão.",
    paidOther: "Nenhum novo pagamento foi gerado: não há mais nada a pagar.",
    seePaid: "Ver o pagamento confirmado",
    retried: "Já foi feita outra tentativa de pagamento para este pedido, talvez em outra aba. Esta tentativa não foi cobrada no seu cartão.",
    seeLatest: "Ver a situação do pedido",
    cardLimit: "Este pedido teve muitas tentativas recusadas com cartão e não aceita outro cartão. Nada foi cobrado nesta tentativa. Escolha outra forma de pagamento ou fale com a loja.",
    cardLimitOnly: "Este pedido teve muitas tentativas recusadas com cartão e não aceita outro cartão. Nada foi cobrado nesta tentativa. Fale com a loja.",
    linkLimit: "Este link atingiu o limite de tentativas de pagamento. Nada foi cobrado nesta tentativa. Fale com a loja para receber um novo link.",
    /** The same limits, when the page opens with them already reached (no attempt was made). */
    atLoad: {
      cardLimit: "Este pedido teve muitas tentativas recusadas com cartão e não aceita outro cartão. Escolha outra forma de pagamento ou fale com a loja.",
      cardLimitOnly: "Este pedido teve muitas tentativas recusadas com cartão e não aceita outro cartão. Fale com a loja.",
      linkLimit: "Este link atingiu o limite de tentativas de pagamento. Fale com a loja para receber um novo link.",
    },
    check: "Ver a situação do pagamento",
  },
  errors: {
    generic: "Algo deu errado. Tente novamente em instantes.",
    network: "Sem resposta: verifique sua internet. O pagamento pode ter sido processado mesmo assim, então veja a situação antes de tentar de novo.",
    /** The pay route answered 5xx (a gateway timeout can come after the card was charged). */
    server: "O servidor não respondeu como esperado. O pagamento pode ter sido processado mesmo assim, então veja a situação antes de tentar de novo.",
    /** 429: too many tries in a short time (nothing was charged: the request was turned away). */
    tooMany: "Muitas tentativas em pouco tempo. Nada foi cobrado. Aguarde um minuto e tente de novo.",
    fix: "Corrija os campos destacados.",
    alreadyPaid: "Este pedido já foi pago.",
  },
  notFound: {
    title: "Pagamento não encontrado",
    text: "O link pode estar incorreto ou incompleto. Confira o endereço recebido da loja.",
  },
  copy: "Copiar",
};

export type Dictionary = typeof pt;


export function dictionary(locale: Locale): Dictionary {
  return locale === "en" ? en : pt;
}

/**
 * "14/06/2026 às 15:30 (horário de Brasília)" / "Jun 14, 2026, 3:30 PM (Brasília time)": in Brasília
 * time, as the payer's bank counts, and saying so (a payer elsewhere would read it as their own).
 * The zone wraps as one piece, on the next line when it does not fit ("(horário / de Brasília)" read badly).
 */
export function formatDateTime(iso: string, locale: Locale): string {
  const d = new Date(iso);
  if (locale === "en") {
    return `${new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/Sao_Paulo" }).format(d)} (Brasília\u00a0time)`;
  }
  const date = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "America/Sao_Paulo" }).format(d);
  const time = new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" }).format(d);
  return `${date} às\u00a0${time} (horário\u00a0de\u00a0Brasília)`;
}

/** A calendar date "YYYY-MM-DD" (a boleto's due date) as "14/06/2026" / "Jun 14, 2026". */
export function formatDay(ymd: string, locale: Locale): string {
  const [y, m, d] = ymd.split("-").map(Number);
  if (locale === "en") {
    return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
  }
  return `${String(d).padStart(2, "0")}/${String(m).padStart(2, "0")}/${y}`;
}

export const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  elo: "Elo",
  hipercard: "Hipercard",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
};
