// One term and value of a <dl className="facts">: the label/value pairs of the inspector, session and health views.
import type { ReactNode } from 'react';

export interface FactProps {
  term: string;
  children: ReactNode;
}

export function Fact({ term, children }: FactProps) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}
