import type { MessageCatalog } from "../messages.js";

/** Korean messages of the SDK. */
export const koMessages: MessageCatalog = {
  "error.verificationRequired": "사람인지 확인을 완료한 후 다시 시도해 주세요.",
  "error.quotaExceeded": "이 앱의 이번 달 제출 한도에 도달했습니다. 나중에 다시 시도해 주세요.",
  "error.subscriptionInactive": "현재 이 앱에 대한 제출이 일시 중지되었습니다.",
  "error.paymentRequired": "이 작업은 앱의 현재 요금제에서 사용할 수 없습니다.",
  "error.authenticationRequired": "계속하려면 로그인해 주세요.",
  "error.rateLimited": {"other": "요청이 너무 많습니다. {count}초 후에 다시 시도해 주세요."},
  "error.timeout": "요청 시간이 초과되었습니다. 연결을 확인한 후 다시 시도해 주세요.",
  "error.network": "서버에 연결할 수 없습니다. 연결을 확인한 후 다시 시도해 주세요.",
  "error.aborted": "요청이 취소되었습니다.",
  "error.unexpected": "문제가 발생했습니다. 다시 시도해 주세요.",
  "error.unsupportedAttachment": "이 파일은 첨부할 수 없습니다.",
  "outbox.queued": "이 기기에 저장했습니다. 연결이 복구되면 전송됩니다.",
};
