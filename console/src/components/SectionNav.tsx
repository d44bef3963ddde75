import { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './SectionNav.module.css';

export interface Section {
  to: string;
  label: string;
  icon?: ReactNode;
  active: boolean;
}

/** The sections of a page as tab-like links (links, not ARIA tabs: each one is an address of its own). */
export function SectionNav({ label, sections }: { label: string; sections: Section[] }) {
  return (
    <nav aria-label={label} className={classes.nav}>
      {sections.map((section) => (
        <Link key={section.to} to={section.to} className={classes.link} aria-current={section.active ? 'page' : undefined}>
          {section.icon}
          {section.label}
        </Link>
      ))}
    </nav>
  );
}
