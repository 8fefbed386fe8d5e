import type { MessageCatalog } from "../messages.js";

/** Japanese messages of the SDK. */
export const jaMessages: MessageCatalog = {
  "error.verificationRequired": "人間であることの確認を完了してから、もう一度お試しください。",
  "error.quotaExceeded": "このアプリは今月の送信上限に達しました。しばらくしてからもう一度お試しください。",
  "error.subscriptionInactive": "このアプリへの送信は現在停止されています。",
  "error.paymentRequired": "この操作はアプリの現在のプランではご利用いただけません。",
  "error.authenticationRequired": "続行するにはサインインしてください。",
  "error.rateLimited": {"other": "リクエストが多すぎます。{count}秒後にもう一度お試しください。"},
  "error.timeout": "リクエストがタイムアウトしました。接続を確認して、もう一度お試しください。",
  "error.network": "サーバーに接続できませんでした。接続を確認して、もう一度お試しください。",
  "error.aborted": "リクエストはキャンセルされました。",
  "error.unexpected": "問題が発生しました。もう一度お試しください。",
  "error.unsupportedAttachment": "このファイルは添付できません。",
  "outbox.queued": "この端末に保存しました。接続が回復すると送信されます。",
};
