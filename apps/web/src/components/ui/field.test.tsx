import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from '@/components/ui/field';
import { renderWithI18n } from '@/testing/render-app';
import { capitalize } from '@/utils/capitalize';

describe('field', () => {
  it('binds its label to the input and describes it with the hint', () => {
    renderWithI18n(<Field label="Server name" description="Shown on the dashboard." />);
    expect(screen.getByLabelText('Server name')).toHaveAccessibleDescription('Shown on the dashboard.');
  });

  it('replaces the hint with the error, first letter capitalised', () => {
    renderWithI18n(
      <Field label="Server name" description="Shown on the dashboard." error="the name is too long." />,
    );
    const input = screen.getByLabelText('Server name');
    expect(input).toHaveAccessibleDescription('The name is too long.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Shown on the dashboard.')).not.toBeInTheDocument();
  });

  it.each([
    ['must be set.', 'Must be set.'],
    ['Already capital.', 'Already capital.'],
    ['', ''],
  ])('capitalises %j as %j', (input, output) => {
    expect(capitalize(input)).toBe(output);
  });
});
