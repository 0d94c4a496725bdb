import { lazy, Suspense } from 'react';
import type { PersonPickerProps } from './person-picker';

const Picker = lazy(() => import('./person-picker').then((module) => ({ default: module.PersonPicker })));

/**
 * The people picker, fetched when a form shows it. Four signed-in screens share it and no guest page uses it; shared
 * statically it went into the common chunk every first page loads, a guest's included (issue 18 brought the guest's
 * `/dashboard` over its 170 kB). Until it arrives, its label and a disabled field hold its place.
 */
export const PersonPicker = (props: PersonPickerProps) => (
  <Suspense
    fallback={
      <div className="field person-picker">
        <label htmlFor={props.id}>{props.label}</label>
        <input id={props.id} type="text" disabled />
      </div>
    }
  >
    <Picker {...props} />
  </Suspense>
);
