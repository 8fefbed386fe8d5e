import type { MessageCatalog } from "../messages.js";

/** Portuguese (pt-BR resolves here) messages of the SDK. */
export const ptMessages: MessageCatalog = {
  "error.verificationRequired": "Conclua a verificação humana e tente novamente.",
  "error.quotaExceeded": "Este app atingiu o limite mensal de envios. Tente novamente mais tarde.",
  "error.subscriptionInactive": "Os envios para este app estão pausados no momento.",
  "error.paymentRequired": "Esta ação não está disponível no plano atual do app.",
  "error.authenticationRequired": "Faça login para continuar.",
  "error.rateLimited": {"one": "Muitas solicitações. Tente novamente em {count} segundo.", "other": "Muitas solicitações. Tente novamente em {count} segundos."},
  "error.timeout": "A solicitação demorou demais. Verifique sua conexão e tente novamente.",
  "error.network": "Não foi possível conectar ao servidor. Verifique sua conexão e tente novamente.",
  "error.aborted": "A solicitação foi cancelada.",
  "error.unexpected": "Algo deu errado. Tente novamente.",
  "error.unsupportedAttachment": "Este arquivo não pode ser anexado.",
  "outbox.queued": "Salvo neste dispositivo. Será enviado quando a conexão voltar.",
};
