// Matchers such as toBeInTheDocument / toHaveAttribute for component tests (jsdom).
import '@testing-library/jest-dom';
import './dialog-polyfill';
