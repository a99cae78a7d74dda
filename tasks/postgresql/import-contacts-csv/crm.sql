CREATE TABLE contacts (
  contact_id  integer PRIMARY KEY,
  full_name   text NOT NULL,
  email       text NOT NULL,
  company     text,
  city        text,
  signup_date date
);
INSERT INTO contacts (contact_id, full_name, email, company, city, signup_date) VALUES
  (1, 'Maria Lopez', 'maria.lopez@example.com', 'Lopez Bakery', 'Valencia', '2023-11-02'),
  (2, 'Tom Becker', 'tom.becker@example.com', NULL, 'Hamburg', '2023-12-15'),
  (3, 'Aiko Tanaka', 'aiko@example.jp', 'Tanaka, Sato & Partners', 'Osaka', '2024-01-09'),
  (4, 'Peter Novak', 'p.novak@example.cz', 'Novak Tools', NULL, '2024-02-20'),
  (5, 'Sara Olsen', 'sara.olsen@example.no', NULL, 'Bergen', '2024-03-03');
