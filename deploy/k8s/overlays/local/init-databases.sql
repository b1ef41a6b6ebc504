-- One database per service (each owns its schema and Flyway migrations), as local-stack creates them.
CREATE DATABASE orders;
CREATE DATABASE payments;
CREATE DATABASE notifications;
CREATE DATABASE reconciliation;
