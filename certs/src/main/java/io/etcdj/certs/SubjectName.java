package io.etcdj.certs;

/**
 * One set of subject name attributes besides the common name, as in cfssl's CSR {@code names}
 * entries ({@code C}, {@code ST}, {@code L}, {@code O}, {@code OU}). Empty or null parts are left out.
 */
public record SubjectName(String country, String state, String locality, String organization,
        String organizationalUnit) {

    public static SubjectName organization(String organization) {
        return new SubjectName(null, null, null, organization, null);
    }

    boolean isEmpty() {
        return blank(country) && blank(state) && blank(locality) && blank(organization)
                && blank(organizationalUnit);
    }

    static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
