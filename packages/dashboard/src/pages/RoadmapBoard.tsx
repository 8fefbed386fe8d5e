import type { AdminFeatureRequest, BoardColumn } from "@tidings/protocol";
import type { DragEvent } from "react";
import { Empty } from "../components/ui.js";
import { t } from "../i18n/t.js";

/** The board of approved requests, a column of cards per roadmap column; a card moves by drag and drop or by its menu. */
export function RoadmapBoard(props: { columns: readonly BoardColumn[]; requests: readonly AdminFeatureRequest[]; onMoveRequest: (requestId: string, columnId: string) => void }) {
  const list = props.columns;
  const moveRequest = props.onMoveRequest;
  const onCardDrop = (event: DragEvent, columnId: string) => {
    const requestId = event.dataTransfer.getData("application/x-tidings-request");
    if (requestId !== "") moveRequest(requestId, columnId);
  };
  return (
    <div className="board">
      {list.map((column) => {
        const cards = props.requests.filter((r) => r.columnId === column.id);
        return (
          <section key={column.id} className="board-column" aria-label={column.name} onDragOver={(e) => e.preventDefault()} onDrop={(e) => onCardDrop(e, column.id)} data-testid={`board-${column.slug}`}>
            <h3>
              <span className="swatch" style={{ background: column.color ?? "#94a3b8" }} />
              {column.name} <span className="count">{cards.length}</span>
            </h3>
            {cards.length === 0 ? <Empty>{t("roadmap.emptyColumn")}</Empty> : null}
            {cards.map((card) => (
              <article key={card.id} className="board-card" draggable onDragStart={(e) => e.dataTransfer.setData("application/x-tidings-request", card.id)}>
                <p>{card.title}</p>
                <small>{t("requests.votes", { count: card.voteCount })}</small>
                <select aria-label={`${t("requests.moveTo")}: ${card.title}`} value={column.id} onChange={(e) => moveRequest(card.id, e.target.value)}>
                  {list.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </article>
            ))}
          </section>
        );
      })}
    </div>
  );
}
