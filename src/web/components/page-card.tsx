import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { usePageTitle } from './page-title.ts';

interface PageCardProps {
  title: string;
  backTo: string;
  backLabel: string;
  children: ReactNode;
}

/** A form page: a link back, then a card whose header is the page's heading. */
export function PageCard({ title, backTo, backLabel, children }: PageCardProps) {
  usePageTitle(title);
  return (
    <>
      <Link to={backTo} className="btn btn-link ps-0 mb-2">
        {backLabel}
      </Link>
      <Card>
        <Card.Header as="h1" className="h4">
          {title}
        </Card.Header>
        <Card.Body>{children}</Card.Body>
      </Card>
    </>
  );
}
