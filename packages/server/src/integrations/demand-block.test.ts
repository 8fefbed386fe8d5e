import { describe, expect, it } from "vitest";
import { DEMAND_END, DEMAND_START, renderDemandBlock, withDemandBlock, withoutDemandBlock } from "./demand-block.js";

const demand = { votes: 1204, comments: 3, payingVoters: 2, revenue: [{ currency: "USD", cents: 129_900 }, { currency: "EUR", cents: 4_000 }, { currency: "", cents: 0 }], url: "https://t.example/p/app_x/requests/fr_1-dark-mode" };

describe("the demand block", () => {
  it("shows votes, comments, paying voters, revenue per currency and the link between its markers", () => {
    const block = renderDemandBlock(demand);
    expect(block.startsWith(DEMAND_START)).toBe(true);
    expect(block.endsWith(DEMAND_END)).toBe(true);
    expect(block).toContain("| 1204 | 3 | 2 | USD 1,299.00 · EUR 40.00 |");
    expect(block).toContain("[1,204 votes on the request's page](https://t.example/p/app_x/requests/fr_1-dark-mode)");
    expect(renderDemandBlock({ ...demand, votes: 1, revenue: [] })).toContain("| 1 | 3 | 2 | — |");
    expect(renderDemandBlock({ ...demand, votes: 1 })).toContain("[1 vote on");
  });

  it("appends itself after the team's text, and later replaces only what is between the markers", () => {
    const body = "Steps:\r\n1. open\n\n```\ncode  \n```\n  ";
    const first = withDemandBlock(body, renderDemandBlock(demand));
    expect(first.startsWith("Steps:\r\n1. open\n\n```\ncode  \n```")).toBe(true);
    const edited = `${first}\n\nA note the team added below.`;
    const second = withDemandBlock(edited, renderDemandBlock({ ...demand, votes: 1205 }));
    expect(second).toBe(edited.replace("| 1204 |", "| 1205 |").replace("1,204 votes", "1,205 votes"));
    expect(withDemandBlock("", "B")).toBe("B");
  });

  it("leaves a start marker without an end alone and appends a whole block", () => {
    const body = `quoted ${DEMAND_START} by hand`;
    expect(withDemandBlock(body, "B")).toBe(`${body}\n\nB`);
    expect(withoutDemandBlock(body)).toBe(body);
  });

  it("can be taken out again, leaving the rest as it was", () => {
    expect(withoutDemandBlock(withDemandBlock("Text", renderDemandBlock(demand)))).toBe("Text");
    expect(withoutDemandBlock(`A\n\n${DEMAND_START}x${DEMAND_END}\nB`)).toBe("A\n\nB");
  });
});
