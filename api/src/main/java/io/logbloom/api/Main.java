package io.logbloom.api;

/** Entry point of {@code logbloom.jar}; the server is wired here once the ingest issue lands. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("logbloom " + Main.class.getPackage().getImplementationVersion());
    }
}
